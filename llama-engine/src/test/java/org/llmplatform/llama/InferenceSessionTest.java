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
        int last = PROMPT.length - 1;
        for (int pos = 0; pos < last; pos++) {
            everyLogit.forward(PROMPT[pos], pos);
            prefilled.prefill(PROMPT[pos], pos);
        }
        assertArrayEquals(everyLogit.forward(PROMPT[last], last).clone(), prefilled.forward(PROMPT[last], last), 0f);
        // and decoding goes on from the same cache
        assertArrayEquals(everyLogit.forward(42, PROMPT.length), prefilled.forward(42, PROMPT.length), 0f);
    }
}
