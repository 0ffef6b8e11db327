package org.llmplatform.training.service.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.service.trajectory.ChatMessage;
import org.llmplatform.training.service.trajectory.Choice;
import org.llmplatform.training.service.trajectory.ChoiceLogprobs;
import org.llmplatform.training.service.trajectory.ConversationItem;
import org.llmplatform.training.service.trajectory.TokenLogprob;

class ConversationTokenizerTest {

    private final LlamaEngine engine = Rollouts.engine();

    private static ChatMessage message(String role, String content) {
        return new ChatMessage(role, TextNode.valueOf(content), null, null, null, null);
    }

    private static Choice choice(String content, int[] ids, double[] logprobs) {
        List<TokenLogprob> entries = ids == null ? null : java.util.stream.IntStream.range(0, ids.length)
                .mapToObj(k -> new TokenLogprob("token_id:" + ids[k], List.of(), logprobs[k], List.of())).toList();
        return new Choice("stop", 0, message("assistant", content), entries == null ? null : new ChoiceLogprobs(entries, null), null);
    }

    private int[] prompt(String... contents) {
        return engine.encodeChat(Arrays.stream(contents).map(c -> new org.llmplatform.llama.ChatMessage("user", c)).toList());
    }

    @Test
    void aChoiceContributesItsSampledTokenIdsWithTheSamplersLogprobsAfterThePromptAsTheGatewayEncodedIt() {
        int[] sampled = {300, 301, 302};
        List<ConversationItem> items = List.of(message("system", "Be brief."), message("user", "Once upon a time"),
                choice("ignored text", sampled, new double[] {-0.5, -1.0, -1.5}));

        TokenizedSequence sequence = new ConversationTokenizer(engine, false).tokenize(items).orElseThrow();

        int[] prompt = prompt("Be brief.", "Once upon a time");
        assertEquals(prompt.length + 3, sequence.tokens().length);
        assertArrayEquals(prompt, Arrays.copyOf(sequence.tokens(), prompt.length));
        assertArrayEquals(sampled, Arrays.copyOfRange(sequence.tokens(), prompt.length, prompt.length + 3));
        for (int t = 0; t < prompt.length; t++) {
            assertFalse(sequence.trainable()[t]);
            assertTrue(Double.isNaN(sequence.oldLogprobs()[t]));
        }
        assertTrue(sequence.trainable()[prompt.length]);
        assertEquals(-1.0, sequence.oldLogprobs()[prompt.length + 1]);
        assertEquals(3, sequence.trainableTokens());
    }

    @Test
    void theConversationIsCutAfterTheLastTrainableTurnAndLaterContextIsAppendedAsTheTemplateRendersIt() {
        List<ConversationItem> items = List.of(message("user", "Hi"), choice("a", new int[] {300}, new double[] {-0.1}),
                message("user", "more"), choice("b", new int[] {301}, new double[] {-0.2}), message("user", "trailing"));

        TokenizedSequence sequence = new ConversationTokenizer(engine, false).tokenize(items).orElseThrow();

        int[] middle = engine.tokenizer().encode("\nmore", false, false);
        int[] prompt = prompt("Hi");
        assertEquals(prompt.length + 1 + middle.length + 1, sequence.tokens().length, "the trailing message is cut");
        assertEquals(301, sequence.tokens()[sequence.tokens().length - 1]);
        assertEquals(2, sequence.trainableTokens());
    }

    @Test
    void plainAssistantMessagesAndChoicesWithoutLogprobsAreContextUnlessTrainingWithoutLogprobs() {
        List<ConversationItem> items = List.of(message("user", "Hi"), message("assistant", " there"), choice(" you", null, null));

        assertTrue(new ConversationTokenizer(engine, false).tokenize(items).isEmpty());

        TokenizedSequence sequence = new ConversationTokenizer(engine, true).tokenize(items).orElseThrow();
        int[] you = engine.tokenizer().encode(" you", false, false);
        int[] there = engine.tokenizer().encode(" there", false, false);
        assertEquals(there.length + you.length, sequence.trainableTokens());
        assertTrue(Arrays.stream(sequence.oldLogprobs()).allMatch(Double::isNaN), "no sampler logprobs: ratio 1");
    }

    @Test
    void tokenIdEntriesAreParsedAndPlainTokenStringsFallBack() {
        assertEquals(42, ConversationTokenizer.tokenId("token_id:42", 512));
        assertEquals(-1, ConversationTokenizer.tokenId("token_id:999", 512));
        assertEquals(-1, ConversationTokenizer.tokenId("hello", 512));
        assertEquals(-1, ConversationTokenizer.tokenId("token_id:x", 512));
    }

    @Test
    void contentPartsAreJoinedAndNullContentIsEmpty() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals("ab", ConversationTokenizer.text(json.readTree("[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]")));
        assertEquals("", ConversationTokenizer.text(null));
    }
}
