package org.llmplatform.llama.train;

import org.llmplatform.llama.LlamaConfig;
import org.llmplatform.llama.LlamaModel;
import org.llmplatform.llama.lora.LoraTarget;

/**
 * The frozen base model in double precision with a teacher-forced forward pass over a whole sequence (the
 * same computation as {@code InferenceSession}: RMSNorm, RoPE, causal GQA attention, SwiGLU, each projection
 * W·x + scale·B·(A·x)) and its hand-written backward pass, which accumulates gradients only into the LoRA
 * matrices. Immutable and shareable; every loop runs in a fixed order, so results are deterministic.
 */
public final class TrainableModel {

    private static final double NORM_EPSILON = 1e-5;
    private static final LoraTarget[] TARGETS = LoraTarget.values();

    private final LlamaConfig c;
    /** Per layer and target: the base projection, row-major [out, in]. */
    private final double[][] projections;
    private final double[][] attentionNorm;
    private final double[][] ffnNorm;
    private final double[] finalNorm;
    private final double[] embedding;
    private final double[] classifier;
    private final double[] ropeFrequencies;

    private TrainableModel(LlamaModel model) {
        c = model.config();
        projections = new double[c.layers() * TARGETS.length][];
        LlamaModel.Tensor[] tensors = {LlamaModel.Tensor.WQ, LlamaModel.Tensor.WK, LlamaModel.Tensor.WV,
            LlamaModel.Tensor.WO, LlamaModel.Tensor.W1, LlamaModel.Tensor.W2, LlamaModel.Tensor.W3};
        for (LoraTarget target : TARGETS) {
            float[] all = model.copyOf(tensors[target.ordinal()]);
            int size = target.outFeatures(c) * target.inFeatures(c);
            for (int layer = 0; layer < c.layers(); layer++) {
                projections[LoraParameters.index(layer, target)] = toDoubles(all, layer * size, size);
            }
        }
        float[] attention = model.copyOf(LlamaModel.Tensor.ATTENTION_NORM);
        float[] ffn = model.copyOf(LlamaModel.Tensor.FFN_NORM);
        attentionNorm = new double[c.layers()][];
        ffnNorm = new double[c.layers()][];
        for (int layer = 0; layer < c.layers(); layer++) {
            attentionNorm[layer] = toDoubles(attention, layer * c.dim(), c.dim());
            ffnNorm[layer] = toDoubles(ffn, layer * c.dim(), c.dim());
        }
        float[] last = model.copyOf(LlamaModel.Tensor.FINAL_NORM);
        finalNorm = toDoubles(last, 0, last.length);
        float[] tokens = model.copyOf(LlamaModel.Tensor.TOKEN_EMBEDDING);
        embedding = toDoubles(tokens, 0, tokens.length);
        float[] output = model.copyOf(LlamaModel.Tensor.CLASSIFIER);
        classifier = c.sharedClassifier() ? embedding : toDoubles(output, 0, output.length);
        ropeFrequencies = new double[c.headSize() / 2];
        for (int i = 0; i < ropeFrequencies.length; i++) {
            ropeFrequencies[i] = (float) (1.0 / Math.pow(10000.0, (2.0 * i) / c.headSize()));
        }
    }

    public static TrainableModel of(LlamaModel model) {
        return new TrainableModel(model);
    }

    public LlamaConfig config() {
        return c;
    }

    /** Runs {@code tokens} (positions 0..n-1) through the model with {@code lora} applied, keeping activations. */
    public SequenceActivations forward(int[] tokens, LoraParameters lora) {
        if (tokens.length == 0 || tokens.length > c.seqLen()) {
            throw new IllegalArgumentException("a sequence of " + tokens.length + " tokens does not fit a context of "
                    + c.seqLen());
        }
        int dim = c.dim();
        int n = tokens.length;
        SequenceActivations s = new SequenceActivations(c.layers(), n);
        double[][] x = new double[n][];
        for (int t = 0; t < n; t++) {
            if (tokens[t] < 0 || tokens[t] >= c.vocabSize()) {
                throw new IllegalArgumentException("token " + tokens[t] + " is outside the vocabulary");
            }
            x[t] = new double[dim];
            System.arraycopy(embedding, tokens[t] * dim, x[t], 0, dim);
        }
        for (int layer = 0; layer < c.layers(); layer++) {
            x = forwardLayer(layer, x, lora, s);
        }
        for (int t = 0; t < n; t++) {
            s.finalInput[t] = x[t];
            s.finalNormed[t] = new double[dim];
            s.finalInverseRms[t] = rmsNorm(x[t], finalNorm, s.finalNormed[t]);
            double[] logits = new double[c.vocabSize()];
            for (int v = 0; v < logits.length; v++) {
                double sum = 0;
                int row = v * dim;
                for (int j = 0; j < dim; j++) {
                    sum += classifier[row + j] * s.finalNormed[t][j];
                }
                logits[v] = sum;
            }
            s.logits[t] = logits;
        }
        return s;
    }

    private double[][] forwardLayer(int layer, double[][] x, LoraParameters lora, SequenceActivations s) {
        int n = x.length;
        int dim = c.dim();
        int headSize = c.headSize();
        int kvShare = c.heads() / c.kvHeads();
        double scale = 1.0 / Math.sqrt(headSize);
        double[][] out = new double[n][];
        for (int t = 0; t < n; t++) {
            s.layerInput[layer][t] = x[t];
            double[] normed = new double[dim];
            s.attentionInverseRms[layer][t] = rmsNorm(x[t], attentionNorm[layer], normed);
            s.attentionNormed[layer][t] = normed;
            double[] q = linear(layer, LoraTarget.Q, normed, lora, s, t);
            double[] k = linear(layer, LoraTarget.K, normed, lora, s, t);
            s.values[layer][t] = linear(layer, LoraTarget.V, normed, lora, s, t);
            rotate(q, t, false);
            rotate(k, t, false);
            s.queries[layer][t] = q;
            s.keys[layer][t] = k;
        }
        for (int t = 0; t < n; t++) {
            double[] probabilities = new double[c.heads() * (t + 1)];
            double[] attended = new double[dim];
            for (int h = 0; h < c.heads(); h++) {
                int qAt = h * headSize;
                int kvAt = (h / kvShare) * headSize;
                int pAt = h * (t + 1);
                double max = Double.NEGATIVE_INFINITY;
                for (int u = 0; u <= t; u++) {
                    double score = 0;
                    double[] key = s.keys[layer][u];
                    for (int i = 0; i < headSize; i++) {
                        score += s.queries[layer][t][qAt + i] * key[kvAt + i];
                    }
                    probabilities[pAt + u] = score * scale;
                    max = Math.max(max, probabilities[pAt + u]);
                }
                double sum = 0;
                for (int u = 0; u <= t; u++) {
                    probabilities[pAt + u] = Math.exp(probabilities[pAt + u] - max);
                    sum += probabilities[pAt + u];
                }
                for (int u = 0; u <= t; u++) {
                    probabilities[pAt + u] /= sum;
                    double p = probabilities[pAt + u];
                    double[] value = s.values[layer][u];
                    for (int i = 0; i < headSize; i++) {
                        attended[qAt + i] += p * value[kvAt + i];
                    }
                }
            }
            s.attention[layer][t] = probabilities;
            s.attentionOutput[layer][t] = attended;
            double[] projected = linear(layer, LoraTarget.O, attended, lora, s, t);
            double[] mid = new double[dim];
            for (int i = 0; i < dim; i++) {
                mid[i] = x[t][i] + projected[i];
            }
            s.afterAttention[layer][t] = mid;
            double[] normed = new double[dim];
            s.ffnInverseRms[layer][t] = rmsNorm(mid, ffnNorm[layer], normed);
            s.ffnNormed[layer][t] = normed;
            double[] gate = linear(layer, LoraTarget.GATE, normed, lora, s, t);
            double[] up = linear(layer, LoraTarget.UP, normed, lora, s, t);
            double[] gated = new double[gate.length];
            for (int i = 0; i < gated.length; i++) {
                gated[i] = gate[i] / (1.0 + Math.exp(-gate[i])) * up[i];
            }
            s.gate[layer][t] = gate;
            s.up[layer][t] = up;
            s.gated[layer][t] = gated;
            double[] down = linear(layer, LoraTarget.DOWN, gated, lora, s, t);
            out[t] = new double[dim];
            for (int i = 0; i < dim; i++) {
                out[t][i] = mid[i] + down[i];
            }
        }
        return out;
    }

    /**
     * Back-propagates {@code logitGradients} (dLoss/dlogits per position; null rows contribute nothing) and adds
     * the gradients of the LoRA matrices into {@code gradients}.
     */
    public void backward(SequenceActivations s, double[][] logitGradients, LoraParameters lora, LoraParameters gradients) {
        int n = s.length;
        int dim = c.dim();
        double[][] dx = new double[n][dim];
        for (int t = 0; t < n; t++) {
            double[] dLogits = logitGradients[t];
            if (dLogits == null) {
                continue;
            }
            double[] dNormed = new double[dim];
            for (int v = 0; v < dLogits.length; v++) {
                double g = dLogits[v];
                if (g != 0) {
                    int row = v * dim;
                    for (int j = 0; j < dim; j++) {
                        dNormed[j] += g * classifier[row + j];
                    }
                }
            }
            rmsNormBackward(s.finalInput[t], finalNorm, s.finalInverseRms[t], dNormed, dx[t]);
        }
        for (int layer = c.layers() - 1; layer >= 0; layer--) {
            backwardLayer(layer, s, dx, lora, gradients);
        }
    }

    /** dx holds dLoss/d(layer output) on entry and dLoss/d(layer input) on exit. */
    private void backwardLayer(int layer, SequenceActivations s, double[][] dx, LoraParameters lora,
            LoraParameters gradients) {
        int n = s.length;
        int dim = c.dim();
        int hidden = c.hiddenDim();
        int headSize = c.headSize();
        int kvShare = c.heads() / c.kvHeads();
        double scale = 1.0 / Math.sqrt(headSize);
        double[][] dAttended = new double[n][];
        for (int t = 0; t < n; t++) {
            double[] dMid = dx[t].clone();
            double[] dGated = new double[hidden];
            linearBackward(layer, LoraTarget.DOWN, s.gated[layer][t], dx[t], lora, gradients, s, t, dGated);
            double[] dGate = new double[hidden];
            double[] dUp = new double[hidden];
            for (int i = 0; i < hidden; i++) {
                double z = s.gate[layer][t][i];
                double sigmoid = 1.0 / (1.0 + Math.exp(-z));
                dUp[i] = dGated[i] * z * sigmoid;
                dGate[i] = dGated[i] * s.up[layer][t][i] * sigmoid * (1.0 + z * (1.0 - sigmoid));
            }
            double[] dNormed = new double[dim];
            linearBackward(layer, LoraTarget.GATE, s.ffnNormed[layer][t], dGate, lora, gradients, s, t, dNormed);
            linearBackward(layer, LoraTarget.UP, s.ffnNormed[layer][t], dUp, lora, gradients, s, t, dNormed);
            rmsNormBackward(s.afterAttention[layer][t], ffnNorm[layer], s.ffnInverseRms[layer][t], dNormed, dMid);
            dAttended[t] = new double[dim];
            linearBackward(layer, LoraTarget.O, s.attentionOutput[layer][t], dMid, lora, gradients, s, t, dAttended[t]);
            dx[t] = dMid;
        }
        double[][] dq = new double[n][dim];
        double[][] dk = new double[n][c.kvDim()];
        double[][] dv = new double[n][c.kvDim()];
        for (int t = 0; t < n; t++) {
            double[] probabilities = s.attention[layer][t];
            for (int h = 0; h < c.heads(); h++) {
                int qAt = h * headSize;
                int kvAt = (h / kvShare) * headSize;
                int pAt = h * (t + 1);
                double[] dProbabilities = new double[t + 1];
                double weighted = 0;
                for (int u = 0; u <= t; u++) {
                    double dp = 0;
                    double[] value = s.values[layer][u];
                    double p = probabilities[pAt + u];
                    for (int i = 0; i < headSize; i++) {
                        double dOut = dAttended[t][qAt + i];
                        dp += dOut * value[kvAt + i];
                        dv[u][kvAt + i] += p * dOut;
                    }
                    dProbabilities[u] = dp;
                    weighted += p * dp;
                }
                for (int u = 0; u <= t; u++) {
                    double dScore = probabilities[pAt + u] * (dProbabilities[u] - weighted) * scale;
                    if (dScore == 0) {
                        continue;
                    }
                    double[] key = s.keys[layer][u];
                    double[] query = s.queries[layer][t];
                    for (int i = 0; i < headSize; i++) {
                        dq[t][qAt + i] += dScore * key[kvAt + i];
                        dk[u][kvAt + i] += dScore * query[qAt + i];
                    }
                }
            }
        }
        for (int t = 0; t < n; t++) {
            rotate(dq[t], t, true);
            rotate(dk[t], t, true);
            double[] dNormed = new double[dim];
            double[] normed = s.attentionNormed[layer][t];
            linearBackward(layer, LoraTarget.Q, normed, dq[t], lora, gradients, s, t, dNormed);
            linearBackward(layer, LoraTarget.K, normed, dk[t], lora, gradients, s, t, dNormed);
            linearBackward(layer, LoraTarget.V, normed, dv[t], lora, gradients, s, t, dNormed);
            rmsNormBackward(s.layerInput[layer][t], attentionNorm[layer], s.attentionInverseRms[layer][t], dNormed, dx[t]);
        }
    }

    /** W·x + scale·B·(A·x); keeps A·x for the backward pass. */
    private double[] linear(int layer, LoraTarget target, double[] x, LoraParameters lora, SequenceActivations s, int t) {
        int in = target.inFeatures(c);
        int out = target.outFeatures(c);
        int rank = lora.rank();
        int index = LoraParameters.index(layer, target);
        double[] w = projections[index];
        double[] a = lora.a[index];
        double[] b = lora.b[index];
        double[] bottleneck = new double[rank];
        for (int k = 0; k < rank; k++) {
            double sum = 0;
            int row = k * in;
            for (int j = 0; j < in; j++) {
                sum += a[row + j] * x[j];
            }
            bottleneck[k] = sum;
        }
        s.bottleneck[layer][target.ordinal()][t] = bottleneck;
        double loraScale = lora.scale();
        double[] y = new double[out];
        for (int o = 0; o < out; o++) {
            double sum = 0;
            int row = o * in;
            for (int j = 0; j < in; j++) {
                sum += w[row + j] * x[j];
            }
            double delta = 0;
            for (int k = 0; k < rank; k++) {
                delta += b[o * rank + k] * bottleneck[k];
            }
            y[o] = sum + loraScale * delta;
        }
        return y;
    }

    /** Given dy for y = W·x + scale·B·(A·x): adds dA, dB into {@code gradients} and W^T·dy + A^T·(scale·B^T·dy) into dx. */
    private void linearBackward(int layer, LoraTarget target, double[] x, double[] dy, LoraParameters lora,
            LoraParameters gradients, SequenceActivations s, int t, double[] dx) {
        int in = target.inFeatures(c);
        int out = target.outFeatures(c);
        int rank = lora.rank();
        int index = LoraParameters.index(layer, target);
        double[] w = projections[index];
        double[] a = lora.a[index];
        double[] b = lora.b[index];
        double[] gradA = gradients.a[index];
        double[] gradB = gradients.b[index];
        double[] bottleneck = s.bottleneck[layer][target.ordinal()][t];
        double loraScale = lora.scale();
        double[] dBottleneck = new double[rank];
        for (int o = 0; o < out; o++) {
            double g = dy[o];
            if (g == 0) {
                continue;
            }
            int row = o * in;
            for (int j = 0; j < in; j++) {
                dx[j] += w[row + j] * g;
            }
            for (int k = 0; k < rank; k++) {
                gradB[o * rank + k] += loraScale * g * bottleneck[k];
                dBottleneck[k] += loraScale * b[o * rank + k] * g;
            }
        }
        for (int k = 0; k < rank; k++) {
            double g = dBottleneck[k];
            if (g == 0) {
                continue;
            }
            int row = k * in;
            for (int j = 0; j < in; j++) {
                gradA[row + j] += g * x[j];
                dx[j] += a[row + j] * g;
            }
        }
    }

    /** RoPE on consecutive pairs of every head; {@code inverse} applies the transpose (for gradients). */
    private void rotate(double[] vector, int position, boolean inverse) {
        int headSize = c.headSize();
        for (int i = 0; i < vector.length; i += 2) {
            double angle = position * ropeFrequencies[(i % headSize) / 2];
            double cos = Math.cos(angle);
            double sin = inverse ? -Math.sin(angle) : Math.sin(angle);
            double v0 = vector[i];
            double v1 = vector[i + 1];
            vector[i] = v0 * cos - v1 * sin;
            vector[i + 1] = v0 * sin + v1 * cos;
        }
    }

    /** out = weight ⊙ x / rms(x); returns 1/rms(x). */
    private static double rmsNorm(double[] x, double[] weight, double[] out) {
        double ss = 0;
        for (double v : x) {
            ss += v * v;
        }
        double inverse = 1.0 / Math.sqrt(ss / x.length + NORM_EPSILON);
        for (int i = 0; i < x.length; i++) {
            out[i] = weight[i] * x[i] * inverse;
        }
        return inverse;
    }

    /** Adds dLoss/dx into {@code dx} given dLoss/d(rmsNorm(x)). */
    private static void rmsNormBackward(double[] x, double[] weight, double inverse, double[] dOut, double[] dx) {
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += weight[i] * dOut[i] * x[i];
        }
        double cubed = inverse * inverse * inverse / x.length;
        for (int i = 0; i < x.length; i++) {
            dx[i] += inverse * weight[i] * dOut[i] - cubed * x[i] * dot;
        }
    }

    private static double[] toDoubles(float[] values, int from, int count) {
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            out[i] = values[from + i];
        }
        return out;
    }
}
