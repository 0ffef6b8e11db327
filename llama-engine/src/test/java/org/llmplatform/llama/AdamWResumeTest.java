package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.llama.train.AdamW;
import org.llmplatform.llama.train.LoraParameters;

/** An optimizer rebuilt from its saved moments and step count continues exactly as the one it was saved from. */
class AdamWResumeTest {

    private static final LlamaConfig CONFIG = new LlamaConfig(16, 32, 2, 4, 2, 32, 32, true);

    @Test
    void aResumedOptimizerTakesTheSameStepAsTheOriginal() {
        LoraParameters original = parameters();
        AdamW optimizer = new AdamW(original, AdamW.Settings.art());
        optimizer.step(gradient(1), 0.01);
        optimizer.step(gradient(2), 0.01);

        LoraParameters copy = LoraParameters.of(CONFIG, original.toAdapter());
        LoraParameters restart = LoraParameters.of(CONFIG, original.toAdapter());
        AdamW resumed = new AdamW(copy, AdamW.Settings.art(), LoraParameters.of(CONFIG, optimizer.firstMoment().toAdapter()),
                LoraParameters.of(CONFIG, optimizer.secondMoment().toAdapter()), optimizer.steps());
        AdamW fresh = new AdamW(restart, AdamW.Settings.art());
        LoraParameters rounded = LoraParameters.of(CONFIG, original.toAdapter());
        optimizer.step(gradient(3), 0.01);
        resumed.step(gradient(3), 0.01);
        fresh.step(gradient(3), 0.01);

        assertEquals(3, resumed.steps());
        float[] expected = original.toAdapter().b(0, LoraTarget.Q);
        float[] got = copy.toAdapter().b(0, LoraTarget.Q);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], got[i], 1e-5, "b[" + i + "]");
        }
        // A fresh optimizer moves differently: the saved moments are what make the step the same.
        float[] restarted = restart.toAdapter().b(0, LoraTarget.Q);
        float[] before = rounded.toAdapter().b(0, LoraTarget.Q);
        double freshMove = 0;
        double resumedMove = 0;
        for (int i = 0; i < expected.length; i++) {
            freshMove += Math.abs(restarted[i] - before[i]);
            resumedMove += Math.abs(got[i] - before[i]);
        }
        assertEquals(false, Math.abs(freshMove - resumedMove) < 1e-6, "a fresh optimizer took the same step");
    }

    @Test
    void aClipNormOfZeroTurnsClippingOff() {
        LoraParameters parameters = parameters();
        new AdamW(parameters, AdamW.Settings.art()).step(gradient(5), 0.01, new AdamW.Settings(0.9, 0.99, 1e-8, 0, 0));
        double moved = 0;
        for (double value : parameters.b(0, LoraTarget.Q)) {
            moved += Math.abs(value);
        }
        // Adam's first step moves each weight by about the learning rate whatever the gradient's scale.
        assertEquals(0.01, moved / parameters.b(0, LoraTarget.Q).length, 1e-3);
    }

    private static LoraParameters parameters() {
        return LoraParameters.of(CONFIG, LoraAdapter.identity(CONFIG, 2, 4, 11));
    }

    private static LoraParameters gradient(int seed) {
        LoraParameters gradient = parameters().zerosLike();
        java.util.Random random = new java.util.Random(seed);
        for (int layer = 0; layer < CONFIG.layers(); layer++) {
            for (LoraTarget target : LoraTarget.values()) {
                double[] b = gradient.b(layer, target);
                for (int i = 0; i < b.length; i++) {
                    b[i] = random.nextGaussian();
                }
            }
        }
        return gradient;
    }
}
