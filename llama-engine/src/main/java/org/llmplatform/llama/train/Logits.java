package org.llmplatform.llama.train;

/** Numerically stable log-softmax and entropy over one row of logits. */
public final class Logits {

    private Logits() {
    }

    public static double[] logSoftmax(double[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : logits) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (double v : logits) {
            sum += Math.exp(v - max);
        }
        double logSum = max + Math.log(sum);
        double[] out = new double[logits.length];
        for (int i = 0; i < logits.length; i++) {
            out[i] = logits[i] - logSum;
        }
        return out;
    }

    /** Entropy in nats of the distribution whose log-probabilities are given. */
    public static double entropy(double[] logProbabilities) {
        double entropy = 0;
        for (double lp : logProbabilities) {
            entropy -= Math.exp(lp) * lp;
        }
        return entropy;
    }

    /**
     * dLoss/dlogits for a loss {@code coefficient · log p(token)}: coefficient · (onehot(token) − softmax).
     */
    public static double[] logProbabilityGradient(double[] logProbabilities, int token, double coefficient) {
        double[] out = new double[logProbabilities.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = -coefficient * Math.exp(logProbabilities[i]);
        }
        out[token] += coefficient;
        return out;
    }
}
