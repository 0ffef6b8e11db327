package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.llama.train.AdamW;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.llama.train.Logits;
import org.llmplatform.llama.train.SequenceActivations;
import org.llmplatform.llama.train.TrainableModel;

class TrainableModelTest {

    private static final int[] TOKENS = {1, 403, 407, 261, 378, 429, 60, 30, 289, 265, 415, 290, 46};
    /** The finite-difference check's bound on |analytic − numeric| / max(|analytic|, |numeric|). */
    private static final double RELATIVE_ERROR_BOUND = 1e-6;

    private static LoraParameters perturbed(LlamaConfig config, long seed) {
        LoraParameters lora = LoraParameters.of(config, LoraAdapter.identity(config, 8, 16, seed));
        Random random = new Random(seed);
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : LoraTarget.values()) {
                double[] b = lora.b(layer, target);
                for (int i = 0; i < b.length; i++) {
                    b[i] = random.nextGaussian() * 0.05;
                }
            }
        }
        return lora;
    }

    private static void assertSameLogits(LlamaModel merged, TrainableModel model, LoraParameters lora) {
        SequenceActivations activations = model.forward(TOKENS, lora);
        InferenceSession session = merged.newSession();
        for (int pos = 0; pos < TOKENS.length; pos++) {
            float[] expected = session.forward(TOKENS[pos], pos);
            double[] actual = activations.logits(pos);
            for (int v = 0; v < expected.length; v++) {
                assertEquals(expected[v], actual[v], 2e-4, "position " + pos + ", token " + v);
            }
        }
    }

    @Test
    void theTeacherForcedForwardReproducesTheInferenceEnginesLogits() {
        LlamaModel base = SharedModels.stories260K().model();
        TrainableModel model = TrainableModel.of(base);
        LoraAdapter identity = LoraAdapter.identity(base.config(), 8, 16, 3407);
        assertSameLogits(base, model, LoraParameters.of(base.config(), identity));
        LoraParameters trained = perturbed(base.config(), 5);
        assertSameLogits(base.withAdapter(trained.toAdapter()), model, trained);
    }

    /** A loss of the kind the trainer uses: Σ_t c_t · log p(token_{t+1}) with fixed random coefficients. */
    private static double loss(TrainableModel model, LoraParameters lora, double[] coefficients, double[][] gradients) {
        SequenceActivations activations = model.forward(TOKENS, lora);
        double loss = 0;
        for (int t = 0; t + 1 < TOKENS.length; t++) {
            double[] logProbabilities = Logits.logSoftmax(activations.logits(t));
            loss += coefficients[t] * logProbabilities[TOKENS[t + 1]];
            if (gradients != null) {
                gradients[t] = Logits.logProbabilityGradient(logProbabilities, TOKENS[t + 1], coefficients[t]);
            }
        }
        return loss;
    }

    @Test
    void theBackwardPassMatchesCentralFiniteDifferences() {
        LlamaModel base = SharedModels.stories260K().model();
        TrainableModel model = TrainableModel.of(base);
        LoraParameters lora = perturbed(base.config(), 17);
        Random random = new Random(99);
        double[] coefficients = new double[TOKENS.length];
        for (int t = 0; t < coefficients.length; t++) {
            coefficients[t] = random.nextGaussian();
        }
        double[][] logitGradients = new double[TOKENS.length][];
        loss(model, lora, coefficients, logitGradients);
        LoraParameters gradients = lora.zerosLike();
        model.backward(model.forward(TOKENS, lora), logitGradients, lora, gradients);

        double h = 1e-5;
        int checked = 0;
        double worst = 0;
        for (int layer : new int[] {0, 2, 4}) {
            for (LoraTarget target : LoraTarget.values()) {
                for (boolean isA : new boolean[] {true, false}) {
                    double[] parameter = isA ? lora.a(layer, target) : lora.b(layer, target);
                    double[] gradient = isA ? gradients.a(layer, target) : gradients.b(layer, target);
                    for (int sample = 0; sample < 2; sample++) {
                        int i = random.nextInt(parameter.length);
                        double saved = parameter[i];
                        parameter[i] = saved + h;
                        double plus = loss(model, lora, coefficients, null);
                        parameter[i] = saved - h;
                        double minus = loss(model, lora, coefficients, null);
                        parameter[i] = saved;
                        double numeric = (plus - minus) / (2 * h);
                        double scale = Math.max(Math.abs(numeric), Math.abs(gradient[i]));
                        double error = Math.abs(numeric - gradient[i]) / Math.max(scale, 1e-7);
                        worst = Math.max(worst, error);
                        assertTrue(error < RELATIVE_ERROR_BOUND, target + (isA ? " A" : " B") + " of layer " + layer
                                + "[" + i + "]: analytic " + gradient[i] + ", numeric " + numeric);
                        checked++;
                    }
                }
            }
        }
        assertEquals(84, checked);
        System.out.printf("finite-difference check: %d entries, worst relative error %.2e%n", checked, worst);
    }

    @Test
    void theGradientOfTheIdentityAdapterReachesBOnly() {
        LlamaModel base = SharedModels.stories260K().model();
        TrainableModel model = TrainableModel.of(base);
        LoraParameters lora = LoraParameters.of(base.config(), LoraAdapter.identity(base.config(), 8, 16, 1));
        double[] coefficients = new double[TOKENS.length];
        java.util.Arrays.fill(coefficients, 1);
        double[][] logitGradients = new double[TOKENS.length][];
        loss(model, lora, coefficients, logitGradients);
        LoraParameters gradients = lora.zerosLike();
        model.backward(model.forward(TOKENS, lora), logitGradients, lora, gradients);
        for (LoraTarget target : LoraTarget.values()) {
            assertTrue(java.util.Arrays.stream(gradients.a(0, target)).allMatch(g -> g == 0), target + " A");
            assertTrue(java.util.Arrays.stream(gradients.b(0, target)).anyMatch(g -> g != 0), target + " B");
        }
    }

    private static byte[] train(TrainableModel model, LlamaConfig config, int steps, double[] losses) {
        LoraParameters lora = LoraParameters.of(config, LoraAdapter.identity(config, 8, 16, 3407));
        AdamW optimizer = new AdamW(lora, AdamW.Settings.art());
        double[] coefficients = new double[TOKENS.length];
        java.util.Arrays.fill(coefficients, -1.0 / (TOKENS.length - 1));
        for (int step = 0; step < steps; step++) {
            double[][] logitGradients = new double[TOKENS.length][];
            losses[step] = loss(model, lora, coefficients, logitGradients);
            LoraParameters gradients = lora.zerosLike();
            model.backward(model.forward(TOKENS, lora), logitGradients, lora, gradients);
            optimizer.step(gradients, 1e-2);
        }
        return lora.toAdapter().safetensors();
    }

    @Test
    void adamWLowersTheLossAndIsDeterministic() {
        LlamaModel base = SharedModels.stories260K().model();
        TrainableModel model = TrainableModel.of(base);
        double[] first = new double[8];
        double[] second = new double[8];
        byte[] once = train(model, base.config(), 8, first);
        byte[] again = train(model, base.config(), 8, second);
        assertArrayEquals(once, again);
        assertArrayEquals(first, second);
        assertTrue(first[7] < first[0] * 0.9, "negative log-likelihood " + first[0] + " -> " + first[7]);
    }
}
