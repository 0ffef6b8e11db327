package org.llmplatform.training.service.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.llmplatform.llama.ChatMessage;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.training.service.trajectory.Choice;
import org.llmplatform.training.service.trajectory.ConversationItem;
import org.llmplatform.training.service.trajectory.TokenLogprob;

/**
 * Turns a conversation into tokens and an assistant mask (docs/training-service.md#tokenization) with the engine's chat template:
 * the messages before the first trainable turn are encoded exactly as the gateway encoded the prompt it
 * sampled from ({@link LlamaEngine#encodeChat}); each sampled Choice contributes its own token ids (from the
 * {@code token_id:N} logprob entries, else vLLM's {@code token_ids}, else its content re-encoded) with the
 * sampler's logprobs; later context messages are appended as the template renders them (a newline, then the
 * contents joined by newlines). The conversation is cut after its last trainable turn and truncated to the
 * model's context.
 */
public final class ConversationTokenizer {

    private static final String TOKEN_ID_PREFIX = "token_id:";

    private final LlamaEngine engine;
    private final boolean trainWithoutLogprobs;

    public ConversationTokenizer(LlamaEngine engine, boolean trainWithoutLogprobs) {
        this.engine = engine;
        this.trainWithoutLogprobs = trainWithoutLogprobs;
    }

    /** The sequence, or empty when the conversation has no trainable turn. */
    public Optional<TokenizedSequence> tokenize(List<ConversationItem> items) {
        boolean[] turns = new boolean[items.size()];
        for (int i = 0; i < items.size(); i++) {
            turns[i] = isTrainable(items.get(i));
        }
        return tokenize(items, turns);
    }

    /**
     * The sequence in which exactly the items flagged in {@code trainableTurns} are trained on (supervised
     * fine-tuning picks its assistant turns itself), or empty when none of them has a token.
     */
    public Optional<TokenizedSequence> tokenize(List<ConversationItem> items, boolean[] trainableTurns) {
        int last = -1;
        for (int i = 0; i < items.size(); i++) {
            if (trainableTurns[i]) {
                last = i;
            }
        }
        if (last < 0) {
            return Optional.empty();
        }
        List<Integer> tokens = new ArrayList<>();
        List<Boolean> trainable = new ArrayList<>();
        List<Double> logprobs = new ArrayList<>();
        List<ChatMessage> pending = new ArrayList<>();
        boolean started = false;
        for (int i = 0; i <= last; i++) {
            ConversationItem item = items.get(i);
            if (!trainableTurns[i]) {
                pending.add(asMessage(item));
                continue;
            }
            appendContext(pending, started, tokens, trainable, logprobs);
            pending.clear();
            started = true;
            appendTurn(item, tokens, trainable, logprobs);
        }
        int length = Math.min(tokens.size(), engine.config().seqLen());
        int[] ids = new int[length];
        boolean[] mask = new boolean[length];
        double[] old = new double[length];
        for (int t = 0; t < length; t++) {
            ids[t] = tokens.get(t);
            mask[t] = trainable.get(t);
            old[t] = logprobs.get(t);
        }
        TokenizedSequence sequence = new TokenizedSequence(ids, mask, old);
        return sequence.trainableTokens() == 0 ? Optional.empty() : Optional.of(sequence);
    }

    private boolean isTrainable(ConversationItem item) {
        if (item instanceof Choice choice) {
            return hasLogprobs(choice) || trainWithoutLogprobs;
        }
        return trainWithoutLogprobs && item instanceof org.llmplatform.training.service.trajectory.ChatMessage message
                && "assistant".equals(message.role());
    }

    private static boolean hasLogprobs(Choice choice) {
        return choice.logprobs() != null && choice.logprobs().content() != null && !choice.logprobs().content().isEmpty();
    }

    private void appendContext(List<ChatMessage> messages, boolean afterTurn, List<Integer> tokens, List<Boolean> trainable,
            List<Double> logprobs) {
        int[] ids;
        if (!afterTurn) {
            ids = engine.encodeChat(messages);
        } else if (messages.isEmpty()) {
            return;
        } else {
            StringBuilder text = new StringBuilder();
            for (ChatMessage message : messages) {
                text.append('\n').append(message.content());
            }
            ids = engine.tokenizer().encode(text.toString(), false, false);
        }
        for (int id : ids) {
            tokens.add(id);
            trainable.add(false);
            logprobs.add(Double.NaN);
        }
    }

    private void appendTurn(ConversationItem item, List<Integer> tokens, List<Boolean> trainable, List<Double> logprobs) {
        List<TokenLogprob> entries = item instanceof Choice choice && hasLogprobs(choice) ? choice.logprobs().content() : List.of();
        int[] ids = sampledIds(item, entries);
        for (int k = 0; k < ids.length; k++) {
            tokens.add(ids[k]);
            trainable.add(true);
            Double logprob = k < entries.size() && entries.size() == ids.length ? entries.get(k).logprob() : null;
            logprobs.add(logprob == null || !Double.isFinite(logprob) ? Double.NaN : logprob);
        }
    }

    private int[] sampledIds(ConversationItem item, List<TokenLogprob> entries) {
        int vocab = engine.config().vocabSize();
        if (!entries.isEmpty()) {
            int[] ids = new int[entries.size()];
            boolean allIds = true;
            for (int k = 0; k < ids.length && allIds; k++) {
                ids[k] = tokenId(entries.get(k).token(), vocab);
                allIds = ids[k] >= 0;
            }
            if (allIds) {
                return ids;
            }
        }
        if (item instanceof Choice choice && choice.tokenIds() != null && !choice.tokenIds().isEmpty()
                && choice.tokenIds().stream().allMatch(id -> id != null && id >= 0 && id < vocab)) {
            return choice.tokenIds().stream().mapToInt(Integer::intValue).toArray();
        }
        return engine.tokenizer().encode(asMessage(item).content(), false, false);
    }

    /** The id in a {@code token_id:N} logprob entry, or -1 when the entry is a plain token string or out of range. */
    static int tokenId(String token, int vocab) {
        if (token == null || !token.startsWith(TOKEN_ID_PREFIX)) {
            return -1;
        }
        try {
            int id = Integer.parseInt(token.substring(TOKEN_ID_PREFIX.length()));
            return id >= 0 && id < vocab ? id : -1;
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }

    private static ChatMessage asMessage(ConversationItem item) {
        if (item instanceof Choice choice) {
            return new ChatMessage("assistant", text(choice.message() == null ? null : choice.message().content()));
        }
        org.llmplatform.training.service.trajectory.ChatMessage message = (org.llmplatform.training.service.trajectory.ChatMessage) item;
        return new ChatMessage(message.role(), text(message.content()));
    }

    /** A message's text: the string, or the text parts joined; null contents are "". */
    static String text(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.hasNonNull("text")) {
                    text.append(part.get("text").asText());
                }
            }
        }
        return text.toString();
    }
}
