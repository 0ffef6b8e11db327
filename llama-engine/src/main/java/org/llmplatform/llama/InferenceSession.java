package org.llmplatform.llama;

import java.nio.FloatBuffer;

/**
 * One sequence being decoded: activations and the KV cache of every layer. Not thread-safe; a
 * session belongs to one generation at a time.
 */
public final class InferenceSession {

    private static final float NORM_EPSILON = 1e-5f;

    private final LlamaModel model;
    private final LlamaConfig c;
    private final float[] x;
    private final float[] xb;
    private final float[] xb2;
    private final float[] hb;
    private final float[] hb2;
    private final float[] q;
    private final float[] att;
    private final float[] logits;
    private final float[] keyCache;
    private final float[] valueCache;
    private final float[] ropeFrequencies;

    InferenceSession(LlamaModel model) {
        this.model = model;
        this.c = model.config();
        x = new float[c.dim()];
        xb = new float[c.dim()];
        xb2 = new float[c.dim()];
        hb = new float[c.hiddenDim()];
        hb2 = new float[c.hiddenDim()];
        q = new float[c.dim()];
        att = new float[c.heads() * c.seqLen()];
        logits = new float[c.vocabSize()];
        keyCache = new float[c.layers() * c.seqLen() * c.kvDim()];
        valueCache = new float[c.layers() * c.seqLen() * c.kvDim()];
        ropeFrequencies = new float[c.headSize() / 2];
        for (int i = 0; i < ropeFrequencies.length; i++) {
            ropeFrequencies[i] = (float) (1.0 / Math.pow(10000.0, (2.0 * i) / c.headSize()));
        }
    }

    public LlamaConfig config() {
        return c;
    }

    /**
     * Runs {@code token} at position {@code pos} and returns the logits of the next token. The array
     * is this session's buffer: it is overwritten by the next call.
     */
    public float[] forward(int token, int pos) {
        prefill(token, pos);
        int dim = c.dim();
        rmsNorm(x, x, model.finalNorm, 0, dim);
        matmul(logits, 0, x, dim, model.classifier, 0, c.vocabSize());
        return logits;
    }

    /**
     * Runs {@code token} at position {@code pos} and returns a new array with its final hidden state: the residual
     * stream after the last RMSNorm, the vector the classifier would turn into logits (llama.cpp's embedding).
     */
    public float[] hiddenState(int token, int pos) {
        prefill(token, pos);
        float[] state = new float[c.dim()];
        rmsNorm(state, x, model.finalNorm, 0, c.dim());
        return state;
    }

    /**
     * Runs {@code token} at position {@code pos} into the KV cache without the logits: a prompt token that is
     * not the last one needs no next-token distribution, and the classifier (vocabulary × dim) is the largest
     * single matrix of a small model.
     */
    public void prefill(int token, int pos) {
        if (token < 0 || token >= c.vocabSize()) {
            throw new IllegalArgumentException("token " + token + " is outside the vocabulary");
        }
        if (pos < 0 || pos >= c.seqLen()) {
            throw new IllegalArgumentException("position " + pos + " is outside the context of " + c.seqLen());
        }
        int dim = c.dim();
        int kvDim = c.kvDim();
        int hidden = c.hiddenDim();
        int headSize = c.headSize();
        int kvShare = c.heads() / c.kvHeads();
        model.tokenEmbedding.get(token * dim, x, 0, dim);
        for (int layer = 0; layer < c.layers(); layer++) {
            rmsNorm(xb, x, model.attentionNorm, layer * dim, dim);
            int cacheBase = layer * c.seqLen() * kvDim;
            int cacheAt = cacheBase + pos * kvDim;
            matmul(q, 0, xb, dim, model.wq, layer * dim * dim, dim);
            matmul(keyCache, cacheAt, xb, dim, model.wk, layer * dim * kvDim, kvDim);
            matmul(valueCache, cacheAt, xb, dim, model.wv, layer * dim * kvDim, kvDim);
            rotate(pos, headSize, kvDim, cacheAt);
            attend(pos, headSize, kvDim, kvShare, cacheBase);
            matmul(xb2, 0, xb, dim, model.wo, layer * dim * dim, dim);
            add(x, xb2, dim);
            rmsNorm(xb, x, model.ffnNorm, layer * dim, dim);
            matmul(hb, 0, xb, dim, model.w1, layer * hidden * dim, hidden);
            matmul(hb2, 0, xb, dim, model.w3, layer * hidden * dim, hidden);
            for (int i = 0; i < hidden; i++) {
                float v = hb[i];
                hb[i] = v / (1.0f + (float) Math.exp(-v)) * hb2[i];
            }
            matmul(xb, 0, hb, hidden, model.w2, layer * dim * hidden, dim);
            add(x, xb, dim);
        }
    }

    /** RoPE on every query head and, for the first kvDim elements, on the key just cached. */
    private void rotate(int pos, int headSize, int kvDim, int cacheAt) {
        for (int i = 0; i < c.dim(); i += 2) {
            double angle = pos * ropeFrequencies[(i % headSize) / 2];
            float cos = (float) Math.cos(angle);
            float sin = (float) Math.sin(angle);
            float q0 = q[i];
            float q1 = q[i + 1];
            q[i] = q0 * cos - q1 * sin;
            q[i + 1] = q0 * sin + q1 * cos;
            if (i < kvDim) {
                float k0 = keyCache[cacheAt + i];
                float k1 = keyCache[cacheAt + i + 1];
                keyCache[cacheAt + i] = k0 * cos - k1 * sin;
                keyCache[cacheAt + i + 1] = k0 * sin + k1 * cos;
            }
        }
    }

    /** Causal grouped-query attention into {@code xb}: query head h reads kv head h / kvShare. */
    private void attend(int pos, int headSize, int kvDim, int kvShare, int cacheBase) {
        float scale = (float) (1.0 / Math.sqrt(headSize));
        for (int h = 0; h < c.heads(); h++) {
            int qAt = h * headSize;
            int attAt = h * c.seqLen();
            int kvAt = (h / kvShare) * headSize;
            for (int t = 0; t <= pos; t++) {
                int kAt = cacheBase + t * kvDim + kvAt;
                float score = 0f;
                for (int i = 0; i < headSize; i++) {
                    score += q[qAt + i] * keyCache[kAt + i];
                }
                att[attAt + t] = score * scale;
            }
            softmax(att, attAt, pos + 1);
            java.util.Arrays.fill(xb, qAt, qAt + headSize, 0f);
            for (int t = 0; t <= pos; t++) {
                int vAt = cacheBase + t * kvDim + kvAt;
                float a = att[attAt + t];
                for (int i = 0; i < headSize; i++) {
                    xb[qAt + i] += a * valueCache[vAt + i];
                }
            }
        }
    }

    private static void rmsNorm(float[] out, float[] in, FloatBuffer weight, int weightAt, int size) {
        float ss = 0f;
        for (int i = 0; i < size; i++) {
            ss += in[i] * in[i];
        }
        float inv = (float) (1.0 / Math.sqrt(ss / size + NORM_EPSILON));
        for (int i = 0; i < size; i++) {
            out[i] = weight.get(weightAt + i) * (inv * in[i]);
        }
    }

    /**
     * {@code out[outAt..outAt+rows) = W · in}, W a rows×cols block of {@code weights} at {@code weightAt}. Four rows
     * at a time: each row's sum still adds its products in order (the results are bit for bit those of one row at
     * a time), but four independent sums keep the CPU busy where one sum waits on its previous addition.
     */
    private static void matmul(float[] out, int outAt, float[] in, int cols, FloatBuffer weights, int weightAt, int rows) {
        int r = 0;
        for (; r + 3 < rows; r += 4) {
            int at0 = weightAt + r * cols;
            int at1 = at0 + cols;
            int at2 = at1 + cols;
            int at3 = at2 + cols;
            float sum0 = 0f;
            float sum1 = 0f;
            float sum2 = 0f;
            float sum3 = 0f;
            for (int j = 0; j < cols; j++) {
                float v = in[j];
                sum0 += weights.get(at0 + j) * v;
                sum1 += weights.get(at1 + j) * v;
                sum2 += weights.get(at2 + j) * v;
                sum3 += weights.get(at3 + j) * v;
            }
            out[outAt + r] = sum0;
            out[outAt + r + 1] = sum1;
            out[outAt + r + 2] = sum2;
            out[outAt + r + 3] = sum3;
        }
        for (; r < rows; r++) {
            int rowAt = weightAt + r * cols;
            float sum = 0f;
            for (int j = 0; j < cols; j++) {
                sum += weights.get(rowAt + j) * in[j];
            }
            out[outAt + r] = sum;
        }
    }

    private static void add(float[] into, float[] delta, int size) {
        for (int i = 0; i < size; i++) {
            into[i] += delta[i];
        }
    }

    static void softmax(float[] values, int from, int count) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = from; i < from + count; i++) {
            max = Math.max(max, values[i]);
        }
        float sum = 0f;
        for (int i = from; i < from + count; i++) {
            values[i] = (float) Math.exp(values[i] - max);
            sum += values[i];
        }
        for (int i = from; i < from + count; i++) {
            values[i] /= sum;
        }
    }
}
