package org.llmplatform.inference.completions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.ChatRequestParser;
import org.llmplatform.inference.http.BodyReader;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.PromptInput;
import org.llmplatform.support.error.ApiException;

/**
 * Parses a legacy completions body against vLLM's {@code CompletionRequest}: the fields of its own ({@code prompt},
 * {@code echo}, {@code logprobs} as a count, {@code suffix}) here, the sampling fields it shares with chat by
 * {@link ChatRequestParser} (same types, bounds and messages).
 */
public final class CompletionRequestParser {

    /** vLLM's default {@code max_tokens} of a completion (chat's is the rest of the context). */
    static final int DEFAULT_MAX_TOKENS = 16;

    private CompletionRequestParser() {
    }

    public static CompletionRequest parse(JsonNode json) {
        BodyReader in = new BodyReader();
        if (!(json instanceof ObjectNode body)) {
            in.issue("dict_type", List.of("body"), "Input should be a valid dictionary",
                    json == null ? null : BodyReader.raw(json));
            throw ApiException.invalid(in.issues());
        }
        JsonNode prompt = BodyReader.present(body, "prompt");
        boolean echo = orFalse(in.bool(BodyReader.present(body, "echo"), BodyReader.loc("echo")));
        Integer logprobs = in.integer(BodyReader.present(body, "logprobs"), BodyReader.loc("logprobs"));
        in.string(BodyReader.present(body, "suffix"), BodyReader.loc("suffix"));
        if (!in.issues().isEmpty()) {
            throw ApiException.invalid(in.issues());
        }
        if (prompt == null) {
            throw OpenAiException.badRequest("At least one of `prompt` or `prompt_embeds` must be set.", "prompt");
        }
        if (logprobs != null && logprobs < 0) {
            throw OpenAiException.badRequest("`logprobs` must be a positive value.", "logprobs");
        }
        List<PromptInput> prompts = PromptInput.read(prompt, "prompt");
        JsonNode maxTokens = BodyReader.present(body, "max_tokens");
        boolean echoOnly = echo && maxTokens != null && maxTokens.isIntegralNumber() && maxTokens.intValue() == 0;
        ObjectNode sampling = body.deepCopy();
        sampling.remove(List.of("prompt", "echo", "logprobs", "suffix", "top_logprobs", "max_completion_tokens"));
        sampling.putArray("messages");
        sampling.put("logprobs", logprobs != null);
        if (logprobs != null) {
            sampling.put("top_logprobs", logprobs);
        }
        if (maxTokens == null) {
            sampling.put("max_tokens", DEFAULT_MAX_TOKENS);
        } else if (echoOnly) {
            // vLLM samples one token and shows none of it; nothing is sampled here
            sampling.put("max_tokens", 1);
        }
        ChatRequest request = ChatRequestParser.parse(sampling);
        return new CompletionRequest(prompts, request, logprobs, echo, echoOnly,
                BodyReader.present(body, "suffix") != null);
    }

    private static boolean orFalse(Boolean value) {
        return value != null && value;
    }
}
