package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class InferenceSessionTest {

    private static final int[] PROMPT = {1, 403, 407, 261, 378, 429, 60, 30};

    @Test
    void aPromptPrefilledWithoutLogitsLeavesTheSameNextTokenLogitsBitForBit() {
        LlamaModel model = SharedModels.stories260K().model();
        InferenceSession everyLogit = model.newSession();
        InferenceSession prefilled = model.newSession();
        float[] expected = null;
        for (int pos = 0; pos < PROMPT.length; pos++) {
            expected = everyLogit.forward(PROMPT[pos], pos).clone();
        }
        for (int pos = 0; pos < PROMPT.length - 1; pos++) {
            prefilled.prefill(PROMPT[pos], pos);
        }
        int last = PROMPT.length - 1;
        assertArrayEquals(expected, prefilled.forward(PROMPT[last], last), 0f);
        // and decoding goes on from the same cache
        assertArrayEquals(everyLogit.forward(42, PROMPT.length), prefilled.forward(42, PROMPT.length), 0f);
    }
}
