package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddingAndPromptLogprobsTest {

    private static final int[] PROMPT = {1, 403, 407, 261, 378, 429, 60, 30};

    @Test
    void anEmbeddingIsTheUnitLengthMeanOfTheFinalHiddenStates() {
        LlamaEngine engine = SharedModels.stories260K();
        InferenceSession session = engine.model().newSession();
        double[] mean = new double[engine.config().dim()];
        for (int pos = 0; pos < PROMPT.length; pos++) {
            float[] state = session.hiddenState(PROMPT[pos], pos);
            for (int i = 0; i < mean.length; i++) {
                mean[i] += state[i] / PROMPT.length;
            }
        }
        float[] embedding = engine.embed(PROMPT);
        double length = 0;
        double dot = 0;
        double meanLength = 0;
        for (int i = 0; i < embedding.length; i++) {
            length += embedding[i] * embedding[i];
            dot += embedding[i] * mean[i];
            meanLength += mean[i] * mean[i];
        }
        assertEquals(1.0, length, 1e-5);
        // the same direction as the mean: cosine 1
        assertEquals(1.0, dot / Math.sqrt(meanLength), 1e-5);
        assertNotEquals(0f, embedding[0]);
    }

    @Test
    void theHiddenStateIsWhatTheClassifierTurnsIntoTheLogits() {
        LlamaEngine engine = SharedModels.stories260K();
        float[] state = engine.model().newSession().hiddenState(PROMPT[0], 0);
        float[] logits = engine.model().newSession().forward(PROMPT[0], 0);
        float[] classifier = engine.model().copyOf(LlamaModel.Tensor.CLASSIFIER);
        int dim = engine.config().dim();
        for (int token : new int[] {0, 42, 403}) {
            float logit = 0f;
            for (int i = 0; i < dim; i++) {
                logit += classifier[token * dim + i] * state[i];
            }
            assertEquals(logits[token], logit, 1e-4);
        }
    }

    @Test
    void promptLogprobsAreTheNextTokenLogprobsOfAGreedyGenerationAtEachPosition() {
        LlamaEngine engine = SharedModels.stories260K();
        int[] prefix = {PROMPT[0], PROMPT[1], PROMPT[2]};
        GeneratedToken generated = engine.generate(prefix,
                SamplingParams.builder().temperature(0f).maxTokens(1).topLogprobs(3).build(),
                LlamaEngine.randomFor(1L, 0)).next();
        int[] scored = {PROMPT[0], PROMPT[1], PROMPT[2], generated.token()};
        List<GeneratedToken> entries = engine.promptLogprobs(scored, 3);
        assertEquals(3, entries.size());
        GeneratedToken last = entries.get(2);
        assertEquals(generated.token(), last.token());
        assertEquals(generated.logprob(), last.logprob(), 1e-5);
        assertEquals(generated.topLogprobs(), last.topLogprobs());
    }
}
