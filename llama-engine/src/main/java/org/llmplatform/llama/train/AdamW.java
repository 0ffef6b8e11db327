package org.llmplatform.llama.train;

/**
 * AdamW over LoRA parameters with ART's settings by default: β = (0.9, 0.99), ε = 1e-8, decoupled weight decay
 * 0.1, gradients clipped to a global norm of 0.1, the learning rate given per step (ART's constant schedule).
 * Deterministic: plain loops in a fixed order.
 */
public final class AdamW {

    public record Settings(double beta1, double beta2, double epsilon, double weightDecay, double maxGradNorm) {

        public static Settings art() {
            return new Settings(0.9, 0.99, 1e-8, 0.1, 0.1);
        }
    }

    private final LoraParameters parameters;
    private final Settings settings;
    private final LoraParameters firstMoment;
    private final LoraParameters secondMoment;
    private int steps;

    public AdamW(LoraParameters parameters, Settings settings) {
        this(parameters, settings, parameters.zerosLike(), parameters.zerosLike(), 0);
    }

    /** Resumes an optimizer whose moments and step count were saved ({@link #firstMoment()}, {@link #secondMoment()}). */
    public AdamW(LoraParameters parameters, Settings settings, LoraParameters firstMoment, LoraParameters secondMoment, int steps) {
        this.parameters = parameters;
        this.settings = settings;
        this.firstMoment = firstMoment;
        this.secondMoment = secondMoment;
        this.steps = steps;
    }

    /** Clips {@code gradients} to the global norm, applies one update, and returns the norm before clipping. */
    public double step(LoraParameters gradients, double learningRate) {
        return step(gradients, learningRate, settings);
    }

    /**
     * One update with the given settings instead of the optimizer's own (a caller that chooses them per step, as the
     * native training API's {@code optim_step} does); a {@code maxGradNorm} of 0 turns clipping off.
     */
    public double step(LoraParameters gradients, double learningRate, Settings settings) {
        double norm = gradients.norm();
        double clip = settings.maxGradNorm() > 0 && norm > settings.maxGradNorm() ? settings.maxGradNorm() / norm : 1.0;
        steps++;
        double correction1 = 1 - Math.pow(settings.beta1(), steps);
        double correction2 = 1 - Math.pow(settings.beta2(), steps);
        double decay = 1 - learningRate * settings.weightDecay();
        double[][] p = parameters.all();
        double[][] g = gradients.all();
        double[][] m = firstMoment.all();
        double[][] v = secondMoment.all();
        for (int t = 0; t < p.length; t++) {
            for (int i = 0; i < p[t].length; i++) {
                double grad = g[t][i] * clip;
                m[t][i] = settings.beta1() * m[t][i] + (1 - settings.beta1()) * grad;
                v[t][i] = settings.beta2() * v[t][i] + (1 - settings.beta2()) * grad * grad;
                double mHat = m[t][i] / correction1;
                double vHat = v[t][i] / correction2;
                p[t][i] = p[t][i] * decay - learningRate * mHat / (Math.sqrt(vHat) + settings.epsilon());
            }
        }
        return norm;
    }

    public int steps() {
        return steps;
    }

    /** The running mean of the gradients (same layout as the parameters); kept by reference, so saving reads it. */
    public LoraParameters firstMoment() {
        return firstMoment;
    }

    /** The running mean of the squared gradients. */
    public LoraParameters secondMoment() {
        return secondMoment;
    }
}
