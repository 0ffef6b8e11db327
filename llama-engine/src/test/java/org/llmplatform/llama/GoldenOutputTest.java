package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GoldenOutputTest {

    @Test
    void theHeaderIsReadFromTheMappedCheckpoint() {
        LlamaConfig config = SharedModels.stories260K().config();
        assertEquals(new LlamaConfig(64, 172, 5, 8, 4, 512, 512, true), config);
    }

    @Test
    void greedyDecodingContinuesOnceUponATimeAsProvenanceSays() {
        LlamaEngine engine = SharedModels.stories260K();
        int[] prompt = engine.encodeChat(List.of(new ChatMessage("user", "Once upon a time")));
        Generation generation = engine.generate(prompt, SharedModels.greedy(40).build(), new Random(1));
        String text = SharedModels.run(generation);
        assertTrue(text.startsWith(", a little girl was very happy. She wanted to play with her dolls and she went to the park."),
                text);
    }

    @Test
    void usageCountsAreRealTokenCounts() {
        LlamaEngine engine = SharedModels.stories260K();
        int[] prompt = engine.encodeChat(List.of(new ChatMessage("user", "Once upon a time")));
        Generation generation = engine.generate(prompt, SharedModels.greedy(7).build(), new Random(1));
        SharedModels.run(generation);
        assertEquals(prompt.length, generation.promptTokens());
        assertEquals(7, generation.completionTokens());
        assertEquals(FinishReason.LENGTH, generation.finishReason());
    }
}
