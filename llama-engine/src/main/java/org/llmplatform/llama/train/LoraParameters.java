package org.llmplatform.llama.train;

import org.llmplatform.llama.LlamaConfig;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;

/**
 * The trainable LoRA matrices in double precision (or their gradients, same layout): A [r, in] and B [out, r]
 * of every projection, indexed {@code layer * 7 + target.ordinal()}. Mutable; owned by one training job.
 */
public final class LoraParameters {

    static final LoraTarget[] TARGETS = LoraTarget.values();

    private final LlamaConfig config;
    private final int rank;
    private final double alpha;
    final double[][] a;
    final double[][] b;

    private LoraParameters(LlamaConfig config, int rank, double alpha) {
        this.config = config;
        this.rank = rank;
        this.alpha = alpha;
        a = new double[config.layers() * TARGETS.length][];
        b = new double[a.length][];
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : TARGETS) {
                a[index(layer, target)] = new double[rank * target.inFeatures(config)];
                b[index(layer, target)] = new double[target.outFeatures(config) * rank];
            }
        }
    }

    /** The adapter's matrices; a projection it does not target starts at zero (no delta, no gradient into A). */
    public static LoraParameters of(LlamaConfig config, LoraAdapter adapter) {
        if (adapter.layers() != config.layers()) {
            throw new IllegalArgumentException("the adapter has " + adapter.layers() + " layers, the model "
                    + config.layers());
        }
        LoraParameters parameters = new LoraParameters(config, adapter.rank(), adapter.scale() * adapter.rank());
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : TARGETS) {
                float[] ma = adapter.a(layer, target);
                float[] mb = adapter.b(layer, target);
                if (ma == null) {
                    continue;
                }
                double[] da = parameters.a[index(layer, target)];
                double[] db = parameters.b[index(layer, target)];
                if (ma.length != da.length || mb.length != db.length) {
                    throw new IllegalArgumentException("the adapter's " + target.module() + " of layer " + layer
                            + " does not fit the model");
                }
                for (int i = 0; i < ma.length; i++) {
                    da[i] = ma[i];
                }
                for (int i = 0; i < mb.length; i++) {
                    db[i] = mb[i];
                }
            }
        }
        return parameters;
    }

    /** Zeros of the same shapes: a gradient accumulator. */
    public LoraParameters zerosLike() {
        return new LoraParameters(config, rank, alpha);
    }

    /** The adapter these matrices describe, rounded to float. */
    public LoraAdapter toAdapter() {
        float[][] fa = new float[a.length][];
        float[][] fb = new float[b.length][];
        for (int i = 0; i < a.length; i++) {
            fa[i] = toFloats(a[i]);
            fb[i] = toFloats(b[i]);
        }
        return LoraAdapter.of(config, rank, alpha, fa, fb);
    }

    public int rank() {
        return rank;
    }

    public double scale() {
        return alpha / rank;
    }

    public LlamaConfig config() {
        return config;
    }

    /** The live A matrix of {@code target} in {@code layer} (row-major [r, in]). */
    public double[] a(int layer, LoraTarget target) {
        return a[index(layer, target)];
    }

    /** The live B matrix of {@code target} in {@code layer} (row-major [out, r]). */
    public double[] b(int layer, LoraTarget target) {
        return b[index(layer, target)];
    }

    /** Every matrix, A then B per projection, in a fixed order (for the optimizer). */
    double[][] all() {
        double[][] all = new double[a.length * 2][];
        for (int i = 0; i < a.length; i++) {
            all[2 * i] = a[i];
            all[2 * i + 1] = b[i];
        }
        return all;
    }

    /** The Euclidean norm over every entry, summed in a fixed order. */
    public double norm() {
        double sum = 0;
        for (double[] matrix : all()) {
            for (double v : matrix) {
                sum += v * v;
            }
        }
        return Math.sqrt(sum);
    }

    /** Adds {@code other} (same shapes) into these matrices, entry by entry. */
    public void add(LoraParameters other) {
        double[][] mine = all();
        double[][] theirs = other.all();
        for (int m = 0; m < mine.length; m++) {
            for (int i = 0; i < mine[m].length; i++) {
                mine[m][i] += theirs[m][i];
            }
        }
    }

    public void clear() {
        for (double[] matrix : all()) {
            java.util.Arrays.fill(matrix, 0);
        }
    }

    static int index(int layer, LoraTarget target) {
        return layer * TARGETS.length + target.ordinal();
    }

    private static float[] toFloats(double[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (float) values[i];
        }
        return out;
    }
}
