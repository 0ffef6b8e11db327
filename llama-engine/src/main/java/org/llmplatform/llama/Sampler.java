package org.llmplatform.llama;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** Picks the next token from processed logits: argmax, or temperature then top-k, top-p and min-p. */
final class Sampler {

    private final SamplingParams params;
    private final Random random;

    Sampler(SamplingParams params, Random random) {
        this.params = params;
        this.random = random;
    }

    int sample(float[] logits) {
        if (params.greedy()) {
            return argmax(logits);
        }
        float max = logits[argmax(logits)];
        double[] probabilities = new double[logits.length];
        double total = 0;
        for (int i = 0; i < logits.length; i++) {
            probabilities[i] = logits[i] == Float.NEGATIVE_INFINITY
                    ? 0 : Math.exp((logits[i] - max) / params.temperature());
            total += probabilities[i];
        }
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < logits.length; i++) {
            if (probabilities[i] > 0) {
                probabilities[i] /= total;
                candidates.add(i);
            }
        }
        candidates.sort(Comparator.comparingDouble((Integer i) -> probabilities[i]).reversed());
        List<Integer> kept = filter(candidates, probabilities);
        double mass = kept.stream().mapToDouble(i -> probabilities[i]).sum();
        double draw = random.nextDouble() * mass;
        for (int token : kept) {
            draw -= probabilities[token];
            if (draw <= 0) {
                return token;
            }
        }
        return kept.get(kept.size() - 1);
    }

    /** top-k, then the nucleus of top-p, then min-p relative to the most likely token; never empty. */
    private List<Integer> filter(List<Integer> sorted, double[] probabilities) {
        List<Integer> kept = params.topK() > 0 && params.topK() < sorted.size()
                ? sorted.subList(0, params.topK()) : sorted;
        if (params.topP() < 1f) {
            double cumulative = 0;
            int end = 0;
            while (end < kept.size() && cumulative < params.topP()) {
                cumulative += probabilities[kept.get(end)];
                end++;
            }
            kept = kept.subList(0, Math.max(1, end));
        }
        if (params.minP() > 0f) {
            double floor = params.minP() * probabilities[kept.get(0)];
            int end = 1;
            while (end < kept.size() && probabilities[kept.get(end)] >= floor) {
                end++;
            }
            kept = kept.subList(0, end);
        }
        return kept;
    }

    static int argmax(float[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }
}
