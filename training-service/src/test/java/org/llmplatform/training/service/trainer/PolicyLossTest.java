package org.llmplatform.training.service.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.llmplatform.model.events.TrainingJobConfig;

class PolicyLossTest {

    private static TrainingJobConfig config(String lossFn, double epsilon, double epsilonHigh, String level, double kl) {
        return new TrainingJobConfig(5e-6, false, 0, lossFn, epsilon, epsilonHigh, level, null, false, null, true, false, kl, null,
                "current_learner", null, null, 1024, 0, null, false, false, null);
    }

    private static final boolean[] TRAINABLE = {false, true, true, true};
    private static final double[] OLD = {Double.NaN, -1.0, -2.0, Double.NaN};
    private static final double[] ADVANTAGES = {0, 1.5, 1.5, 1.5};
    private static final double[] WEIGHTS = {0, 1.0, 0.5, 1.5};
    private static final double[] REFERENCE = {0, -1.2, -1.8, -0.9};

    private static double loss(PolicyLoss loss, double[] newLogprobs, double[] old) {
        PolicyLoss.SequenceTerms terms = loss.evaluate(newLogprobs, old, REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0);
        return terms.policyLoss() + 0.3 * terms.klDivergence();
    }

    @Test
    void withRatioOneCispoIsMinusAdvantageTimesWeightTimesLogprobOverTheTokenCount() {
        PolicyLoss loss = new PolicyLoss(config("cispo", 1.0, 4.0, "token", 0));
        double[] fresh = {0, -1.0, -2.0, -0.7};
        PolicyLoss.SequenceTerms terms = loss.evaluate(fresh, OLD, null, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0);
        assertEquals(-1.5 * (1.0 * -1.0 + 0.5 * -2.0 + 1.5 * -0.7) / 3, terms.policyLoss(), 1e-12);
        assertEquals(-1.5 * 0.5 / 3, terms.logprobGradient()[2], 1e-12);
        assertEquals(0, terms.logprobGradient()[0]);
    }

    @Test
    void ppoStopsTheGradientOfTokensClippedOutsideTheBand() {
        PolicyLoss loss = new PolicyLoss(config("ppo", 0.2, 0.2, "token", 0));
        double[] moved = {0, -1.0 + Math.log(1.5), -2.0 + Math.log(1.1), -0.7};
        PolicyLoss.SequenceTerms terms = loss.evaluate(moved, OLD, null, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0);
        assertEquals(0, terms.logprobGradient()[1], "ratio 1.5 with a positive advantage is clipped");
        assertEquals(-1.5 * 1.1 * 0.5 / 3, terms.logprobGradient()[2], 1e-12);
    }

    /**
     * The analytic derivative of every objective matches central differences of the loss it reports. A missing old
     * logprob stands for the detached new one, so the numeric side fixes it at the new logprob of the point.
     */
    @Test
    void theLogprobGradientIsTheDerivativeOfTheLossForEveryObjectiveAndLevel() {
        double[] point = {0, -1.0 + 0.05, -2.0 - 0.1, -0.7};
        double[] detached = OLD.clone();
        for (int t = 0; t < detached.length; t++) {
            if (Double.isNaN(detached[t])) {
                detached[t] = point[t];
            }
        }
        for (String lossFn : new String[] {"ppo", "cispo"}) {
            for (String level : new String[] {"token", "sequence", "average", "geometric_average"}) {
                PolicyLoss loss = new PolicyLoss(config(lossFn, lossFn.equals("ppo") ? 0.2 : 1.0, lossFn.equals("ppo") ? 0.2 : 4.0, level, 0.3));
                double[] analytic = loss.evaluate(point, OLD, REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0).logprobGradient();
                for (int t = 1; t < point.length; t++) {
                    double h = 1e-6;
                    double[] plus = point.clone();
                    double[] minus = point.clone();
                    plus[t] += h;
                    minus[t] -= h;
                    double numeric = lossFn.equals("cispo") ? cispoSurrogateDerivative(loss, point, detached, t, h)
                            : (loss(loss, plus, detached) - loss(loss, minus, detached)) / (2 * h);
                    assertEquals(numeric, analytic[t], 1e-6, lossFn + "/" + level + " token " + t);
                }
            }
        }
    }

    /** CISPO detaches the ratio: differentiate with the ratio frozen at the evaluation point. */
    private static double cispoSurrogateDerivative(PolicyLoss loss, double[] point, double[] old, int t, double h) {
        double[] plus = point.clone();
        double[] minus = point.clone();
        plus[t] += h;
        minus[t] -= h;
        double up = loss.evaluate(plus, shifted(old, t, h), REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0).policyLoss()
                + 0.3 * loss.evaluate(plus, old, REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0).klDivergence();
        double down = loss.evaluate(minus, shifted(old, t, -h), REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0).policyLoss()
                + 0.3 * loss.evaluate(minus, old, REFERENCE, TRAINABLE, ADVANTAGES, WEIGHTS, 1 / 3.0).klDivergence();
        return (up - down) / (2 * h);
    }

    /** Old logprobs moved with the new one at t, so that every ratio stays what it was. */
    private static double[] shifted(double[] old, int t, double h) {
        double[] out = old.clone();
        out[t] += h;
        return out;
    }
}
