package org.llmplatform.llama;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;

/**
 * The weights of a llama2.c checkpoint, memory-mapped and read in place. Immutable and shared by every
 * {@link InferenceSession}; each session holds its own activations and KV cache.
 */
public final class LlamaModel {

    private static final int HEADER_BYTES = 7 * Integer.BYTES;

    private final LlamaConfig config;
    final FloatBuffer tokenEmbedding;
    final FloatBuffer attentionNorm;
    final FloatBuffer wq;
    final FloatBuffer wk;
    final FloatBuffer wv;
    final FloatBuffer wo;
    final FloatBuffer ffnNorm;
    final FloatBuffer w1;
    final FloatBuffer w2;
    final FloatBuffer w3;
    final FloatBuffer finalNorm;
    final FloatBuffer classifier;

    private LlamaModel(LlamaConfig config, FloatBuffer weights) {
        this.config = config;
        int dim = config.dim();
        int kvDim = config.kvDim();
        int hidden = config.hiddenDim();
        long layers = config.layers();
        Slicer slicer = new Slicer(weights);
        tokenEmbedding = slicer.next((long) config.vocabSize() * dim);
        attentionNorm = slicer.next(layers * dim);
        wq = slicer.next(layers * dim * dim);
        wk = slicer.next(layers * dim * kvDim);
        wv = slicer.next(layers * dim * kvDim);
        wo = slicer.next(layers * dim * dim);
        ffnNorm = slicer.next(layers * dim);
        w1 = slicer.next(layers * hidden * dim);
        w2 = slicer.next(layers * dim * hidden);
        w3 = slicer.next(layers * hidden * dim);
        finalNorm = slicer.next(dim);
        slicer.next((long) config.seqLen() * config.headSize()); // legacy RoPE tables, recomputed instead
        classifier = config.sharedClassifier() ? tokenEmbedding : slicer.next((long) config.vocabSize() * dim);
    }

    private LlamaModel(LlamaModel base, FloatBuffer wq, FloatBuffer wk, FloatBuffer wv, FloatBuffer wo, FloatBuffer w1,
            FloatBuffer w2, FloatBuffer w3) {
        this.config = base.config;
        this.tokenEmbedding = base.tokenEmbedding;
        this.attentionNorm = base.attentionNorm;
        this.ffnNorm = base.ffnNorm;
        this.finalNorm = base.finalNorm;
        this.classifier = base.classifier;
        this.wq = wq;
        this.wk = wk;
        this.wv = wv;
        this.wo = wo;
        this.w1 = w1;
        this.w2 = w2;
        this.w3 = w3;
    }

    /**
     * A model whose projections are W + scale·B·A for every layer (merged copies on the heap); this model is
     * left untouched. Throws IllegalArgumentException when the adapter's layers or shapes do not fit.
     */
    public LlamaModel withAdapter(LoraAdapter adapter) {
        if (adapter.layers() != config.layers()) {
            throw new IllegalArgumentException("the adapter has " + adapter.layers() + " layers, the model "
                    + config.layers());
        }
        return new LlamaModel(this, merged(wq, adapter, LoraTarget.Q), merged(wk, adapter, LoraTarget.K),
                merged(wv, adapter, LoraTarget.V), merged(wo, adapter, LoraTarget.O),
                merged(w1, adapter, LoraTarget.GATE), merged(w2, adapter, LoraTarget.DOWN),
                merged(w3, adapter, LoraTarget.UP));
    }

    private FloatBuffer merged(FloatBuffer base, LoraAdapter adapter, LoraTarget target) {
        int out = target.outFeatures(config);
        int in = target.inFeatures(config);
        float[] all = new float[base.capacity()];
        base.get(0, all);
        float[] layerWeights = new float[out * in];
        for (int layer = 0; layer < config.layers(); layer++) {
            System.arraycopy(all, layer * out * in, layerWeights, 0, layerWeights.length);
            adapter.addDelta(layer, target, layerWeights, out, in);
            System.arraycopy(layerWeights, 0, all, layer * out * in, layerWeights.length);
        }
        return FloatBuffer.wrap(all);
    }

    /** Maps the checkpoint file; the mapping outlives the channel, so nothing stays open. */
    public static LlamaModel load(Path checkpoint) throws IOException {
        try (FileChannel channel = FileChannel.open(checkpoint, StandardOpenOption.READ)) {
            if (channel.size() < HEADER_BYTES) {
                throw new IOException(checkpoint + " is too short to be a llama2.c checkpoint");
            }
            ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size())
                    .order(ByteOrder.LITTLE_ENDIAN);
            int vocab = mapped.getInt(20);
            LlamaConfig config;
            try {
                config = new LlamaConfig(mapped.getInt(0), mapped.getInt(4), mapped.getInt(8), mapped.getInt(12),
                        mapped.getInt(16), Math.abs(vocab), mapped.getInt(24), vocab > 0);
            } catch (IllegalArgumentException e) {
                throw new IOException(checkpoint + ": " + e.getMessage(), e);
            }
            FloatBuffer weights = mapped.position(HEADER_BYTES).slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            try {
                return new LlamaModel(config, weights);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                throw new IOException(checkpoint + " is shorter than its header " + config + " requires", e);
            }
        }
    }

    public LlamaConfig config() {
        return config;
    }

    /** The weight tensors of a checkpoint, each holding every layer's matrix or vector back to back. */
    public enum Tensor {
        TOKEN_EMBEDDING, ATTENTION_NORM, WQ, WK, WV, WO, FFN_NORM, W1, W2, W3, FINAL_NORM, CLASSIFIER
    }

    /** A copy of {@code tensor} (row-major [out, in] per layer for the projections), e.g. for a trainer. */
    public float[] copyOf(Tensor tensor) {
        FloatBuffer buffer = switch (tensor) {
            case TOKEN_EMBEDDING -> tokenEmbedding;
            case ATTENTION_NORM -> attentionNorm;
            case WQ -> wq;
            case WK -> wk;
            case WV -> wv;
            case WO -> wo;
            case FFN_NORM -> ffnNorm;
            case W1 -> w1;
            case W2 -> w2;
            case W3 -> w3;
            case FINAL_NORM -> finalNorm;
            case CLASSIFIER -> classifier;
        };
        float[] copy = new float[buffer.capacity()];
        buffer.get(0, copy);
        return copy;
    }

    public InferenceSession newSession() {
        return new InferenceSession(this);
    }

    private static final class Slicer {
        private final FloatBuffer all;
        private int offset;

        Slicer(FloatBuffer all) {
            this.all = all;
        }

        FloatBuffer next(long count) {
            if (count > all.capacity() - offset) {
                throw new IndexOutOfBoundsException("weights end early");
            }
            FloatBuffer slice = all.slice(offset, (int) count);
            offset += (int) count;
            return slice;
        }
    }
}
