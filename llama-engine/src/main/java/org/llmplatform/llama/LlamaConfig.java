package org.llmplatform.llama;

/**
 * The header of a llama2.c checkpoint. {@code sharedClassifier} is true when the file's vocab size was
 * positive: the output classifier is then the token-embedding matrix.
 */
public record LlamaConfig(int dim, int hiddenDim, int layers, int heads, int kvHeads, int vocabSize, int seqLen,
        boolean sharedClassifier) {

    public LlamaConfig {
        String header = "dim " + dim + ", hidden_dim " + hiddenDim + ", n_layers " + layers + ", n_heads " + heads
                + ", n_kv_heads " + kvHeads + ", vocab_size " + vocabSize + ", seq_len " + seqLen;
        if (dim <= 0 || hiddenDim <= 0 || layers <= 0 || heads <= 0 || kvHeads <= 0 || vocabSize <= 0 || seqLen <= 0) {
            throw new IllegalArgumentException("checkpoint header has a non-positive size: " + header);
        }
        if (dim % heads != 0 || heads % kvHeads != 0) {
            throw new IllegalArgumentException("checkpoint header has inconsistent head counts: " + header);
        }
    }

    public int headSize() {
        return dim / heads;
    }

    public int kvDim() {
        return dim * kvHeads / heads;
    }
}
