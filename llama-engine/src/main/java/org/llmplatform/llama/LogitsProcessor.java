package org.llmplatform.llama;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Applies a request's masks, biases and penalties to raw logits, in vLLM's order: allowed ids,
 * bad words, min-tokens, logit bias, then repetition / frequency / presence penalties.
 */
final class LogitsProcessor {

    private final SamplingParams params;
    private final List<int[]> badWordSequences;
    private final boolean[] inPrompt;
    private final int[] outputCounts;

    LogitsProcessor(SamplingParams params, Tokenizer tokenizer, int[] prompt) {
        this.params = params;
        this.badWordSequences = new ArrayList<>();
        for (String word : params.badWords()) {
            badWordSequences.add(tokenizer.encode(word, false, true));
            badWordSequences.add(tokenizer.encode(word, false, false));
        }
        this.inPrompt = new boolean[tokenizer.vocabSize()];
        for (int token : prompt) {
            inPrompt[token] = true;
        }
        this.outputCounts = new int[tokenizer.vocabSize()];
    }

    void accept(int token) {
        outputCounts[token]++;
    }

    void apply(float[] logits, List<Integer> output) {
        if (params.allowedTokenIds() != null) {
            for (int token = 0; token < logits.length; token++) {
                if (!params.allowedTokenIds().contains(token)) {
                    logits[token] = Float.NEGATIVE_INFINITY;
                }
            }
        }
        for (int[] sequence : badWordSequences) {
            if (endsWith(output, sequence, sequence.length - 1)) {
                logits[sequence[sequence.length - 1]] = Float.NEGATIVE_INFINITY;
            }
        }
        if (output.size() < params.minTokens()) {
            logits[Tokenizer.EOS] = Float.NEGATIVE_INFINITY;
            params.stopTokenIds().forEach(token -> logits[token] = Float.NEGATIVE_INFINITY);
        }
        for (Map.Entry<Integer, Float> bias : params.logitBias().entrySet()) {
            logits[bias.getKey()] += bias.getValue();
        }
        penalise(logits);
    }

    private void penalise(float[] logits) {
        float repetition = params.repetitionPenalty();
        for (int token = 0; token < logits.length; token++) {
            int count = outputCounts[token];
            if (repetition != 1f && (count > 0 || inPrompt[token])) {
                logits[token] = logits[token] > 0 ? logits[token] / repetition : logits[token] * repetition;
            }
            if (count > 0) {
                logits[token] -= params.frequencyPenalty() * count + params.presencePenalty();
            }
        }
    }

    /** Whether {@code output} ends with the first {@code length} tokens of {@code sequence}. */
    private static boolean endsWith(List<Integer> output, int[] sequence, int length) {
        if (length > output.size()) {
            return false;
        }
        int offset = output.size() - length;
        for (int i = 0; i < length; i++) {
            if (output.get(offset + i) != sequence[i]) {
                return false;
            }
        }
        return true;
    }

    static boolean anyAllowed(float[] logits) {
        for (float logit : logits) {
            if (logit != Float.NEGATIVE_INFINITY) {
                return true;
            }
        }
        return false;
    }
}
