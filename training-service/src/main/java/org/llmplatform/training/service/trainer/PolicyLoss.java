package org.llmplatform.training.service.trainer;

import org.llmplatform.model.events.TrainingJobConfig;

/**
 * The per-token RL objective of docs/training-service.md#loss and its derivative with respect to each token's new logprob.
 * CISPO: −clip(sg(ratio), 1−ε, 1+ε_high)·A·logp; PPO: −min(ratio·A, clip(ratio, 1−ε, 1+ε_high)·A). The ratio is
 * exp(new − old) at the token, sequence (exp of the mean log-ratio), average or geometric-average level; an
 * unknown old logprob counts as the new one (ratio 1). Options: a cap on the ratio of negative-advantage tokens,
 * masking tokens whose ratio leaves the clip band, the Kimi-K2 term (A −= τ·log-ratio), truncated importance
 * sampling, and a k3 KL penalty towards reference logprobs. Each term is weighted and divided by the row's
 * trainable token count (+1e-6).
 */
final class PolicyLoss {

    /** What one sequence adds to its row: the loss terms and dLoss/d(new logprob) per position. */
    record SequenceTerms(double policyLoss, double klDivergence, double[] logprobGradient) {
    }

    private final TrainingJobConfig config;

    PolicyLoss(TrainingJobConfig config) {
        this.config = config;
    }

    boolean usesKl() {
        return config.klPenaltyCoef() > 0;
    }

    /**
     * Arrays are indexed by token position; only trainable positions count. {@code reference} may be null
     * (no KL term). {@code normaliser} is 1 / (trainable tokens in the row + 1e-6).
     */
    SequenceTerms evaluate(double[] newLogprobs, double[] oldLogprobs, double[] reference, boolean[] trainable,
            double[] advantages, double[] weights, double normaliser) {
        int length = newLogprobs.length;
        double[] gradient = new double[length];
        double[] logRatio = new double[length];
        int count = 0;
        double logRatioSum = 0;
        for (int t = 0; t < length; t++) {
            if (trainable[t]) {
                logRatio[t] = Double.isNaN(oldLogprobs[t]) ? 0 : newLogprobs[t] - oldLogprobs[t];
                logRatioSum += logRatio[t];
                count++;
            }
        }
        if (count == 0) {
            return new SequenceTerms(0, 0, gradient);
        }
        double sequenceRatio = Math.exp(logRatioSum / count);
        double low = 1 - config.epsilon();
        double high = 1 + config.epsilonHigh();
        boolean ppo = "ppo".equals(config.lossFn());
        double policyLoss = 0;
        double kl = 0;
        double sequenceGradient = 0;
        for (int t = 0; t < length; t++) {
            if (!trainable[t]) {
                continue;
            }
            double tokenRatio = Math.exp(logRatio[t]);
            double ratio = switch (config.importanceSamplingLevel()) {
                case "sequence" -> sequenceRatio;
                case "average" -> (tokenRatio + sequenceRatio) / 2;
                case "geometric_average" -> Math.sqrt(tokenRatio * sequenceRatio);
                default -> tokenRatio;
            };
            double advantage = advantages[t];
            if (config.kimiK2Tau() != null) {
                advantage -= config.kimiK2Tau() * logRatio[t];
            }
            double scale = weights[t] * normaliser;
            if (config.truncatedImportanceSampling() != null) {
                scale *= Math.min(tokenRatio, config.truncatedImportanceSampling());
            }
            if (config.klPenaltyCoef() > 0 && reference != null) {
                double d = reference[t] - newLogprobs[t];
                kl += scale * (Math.exp(d) - d - 1);
                gradient[t] += config.klPenaltyCoef() * scale * (1 - Math.exp(d));
            }
            if (config.maskProbRatio() && (ratio < low || ratio > high)) {
                continue;
            }
            boolean capped = false;
            Double cap = config.maxNegativeAdvantageImportanceSamplingWeight();
            if (cap != null && advantage < 0 && ratio > cap) {
                ratio = cap;
                capped = true;
            }
            double clipped = Math.min(Math.max(ratio, low), high);
            if (!ppo) {
                policyLoss += -clipped * advantage * newLogprobs[t] * scale;
                gradient[t] += -clipped * advantage * scale;
                continue;
            }
            double unclippedTerm = ratio * advantage;
            double clippedTerm = clipped * advantage;
            policyLoss += -Math.min(unclippedTerm, clippedTerm) * scale;
            if (unclippedTerm <= clippedTerm && !capped) {
                double dRatio = -advantage * scale;
                double[] partials = ratioPartials(tokenRatio, sequenceRatio, ratio);
                gradient[t] += dRatio * partials[0] * tokenRatio;
                sequenceGradient += dRatio * partials[1] * sequenceRatio / count;
            }
        }
        if (sequenceGradient != 0) {
            for (int t = 0; t < length; t++) {
                if (trainable[t]) {
                    gradient[t] += sequenceGradient;
                }
            }
        }
        return new SequenceTerms(policyLoss, kl, gradient);
    }

    /** ∂ratio/∂tokenRatio and ∂ratio/∂sequenceRatio at the configured level. */
    private double[] ratioPartials(double tokenRatio, double sequenceRatio, double ratio) {
        return switch (config.importanceSamplingLevel()) {
            case "sequence" -> new double[] {0, 1};
            case "average" -> new double[] {0.5, 0.5};
            case "geometric_average" -> new double[] {ratio / (2 * tokenRatio), ratio / (2 * sequenceRatio)};
            default -> new double[] {1, 0};
        };
    }
}
