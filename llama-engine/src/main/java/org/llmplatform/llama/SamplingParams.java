package org.llmplatform.llama;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How one sequence is sampled and when it stops, in vLLM's terms. {@code topK <= 0} disables top-k;
 * {@code allowedTokenIds} null allows every token; {@code topLogprobs} &lt; 0 means no logprobs;
 * {@code constraint} (guided decoding) is a pattern the whole output must match.
 */
public record SamplingParams(
        float temperature,
        float topP,
        int topK,
        float minP,
        Long seed,
        float presencePenalty,
        float frequencyPenalty,
        float repetitionPenalty,
        Map<Integer, Float> logitBias,
        Set<Integer> allowedTokenIds,
        List<String> badWords,
        List<String> stop,
        Set<Integer> stopTokenIds,
        boolean includeStopStrInOutput,
        boolean ignoreEos,
        int minTokens,
        int maxTokens,
        int topLogprobs,
        Pattern constraint) {

    /** Below this temperature sampling is greedy, as in vLLM. */
    public static final float GREEDY_BELOW = 1e-5f;

    public SamplingParams {
        logitBias = Map.copyOf(logitBias);
        allowedTokenIds = allowedTokenIds == null ? null : Set.copyOf(allowedTokenIds);
        badWords = List.copyOf(badWords);
        stop = List.copyOf(stop);
        stopTokenIds = Set.copyOf(stopTokenIds);
    }

    public boolean greedy() {
        return temperature < GREEDY_BELOW;
    }

    public boolean wantsLogprobs() {
        return topLogprobs >= 0;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts from vLLM's defaults: temperature 1, no filtering, no penalties, 16 tokens. */
    public static final class Builder {
        private float temperature = 1f;
        private float topP = 1f;
        private int topK;
        private float minP;
        private Long seed;
        private float presencePenalty;
        private float frequencyPenalty;
        private float repetitionPenalty = 1f;
        private Map<Integer, Float> logitBias = Map.of();
        private Set<Integer> allowedTokenIds;
        private List<String> badWords = List.of();
        private List<String> stop = List.of();
        private Set<Integer> stopTokenIds = Set.of();
        private boolean includeStopStrInOutput;
        private boolean ignoreEos;
        private int minTokens;
        private int maxTokens = 16;
        private int topLogprobs = -1;
        private Pattern constraint;

        public Builder temperature(float value) { temperature = value; return this; }
        public Builder topP(float value) { topP = value; return this; }
        public Builder topK(int value) { topK = value; return this; }
        public Builder minP(float value) { minP = value; return this; }
        public Builder seed(Long value) { seed = value; return this; }
        public Builder presencePenalty(float value) { presencePenalty = value; return this; }
        public Builder frequencyPenalty(float value) { frequencyPenalty = value; return this; }
        public Builder repetitionPenalty(float value) { repetitionPenalty = value; return this; }
        public Builder logitBias(Map<Integer, Float> value) { logitBias = value; return this; }
        public Builder allowedTokenIds(Set<Integer> value) { allowedTokenIds = value; return this; }
        public Builder badWords(List<String> value) { badWords = value; return this; }
        public Builder stop(List<String> value) { stop = value; return this; }
        public Builder stopTokenIds(Set<Integer> value) { stopTokenIds = value; return this; }
        public Builder includeStopStrInOutput(boolean value) { includeStopStrInOutput = value; return this; }
        public Builder ignoreEos(boolean value) { ignoreEos = value; return this; }
        public Builder minTokens(int value) { minTokens = value; return this; }
        public Builder maxTokens(int value) { maxTokens = value; return this; }
        public Builder topLogprobs(int value) { topLogprobs = value; return this; }
        public Builder constraint(Pattern value) { constraint = value; return this; }

        public SamplingParams build() {
            return new SamplingParams(temperature, topP, topK, minP, seed, presencePenalty, frequencyPenalty,
                    repetitionPenalty, logitBias, allowedTokenIds, badWords, stop, stopTokenIds,
                    includeStopStrInOutput, ignoreEos, minTokens, maxTokens, topLogprobs, constraint);
        }
    }
}
