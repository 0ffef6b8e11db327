package org.llmplatform.llama;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
