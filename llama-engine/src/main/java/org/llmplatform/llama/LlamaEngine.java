package org.llmplatform.llama;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A loaded checkpoint with its tokenizer: the entry point for chat prompts and generations. */
public final class LlamaEngine {

    private final LlamaModel model;
    private final Tokenizer tokenizer;

    public LlamaEngine(LlamaModel model, Tokenizer tokenizer) {
        this.model = model;
        this.tokenizer = tokenizer;
    }

    public static LlamaEngine load(Path checkpoint, Path tokenizerFile) throws IOException {
        LlamaModel model = LlamaModel.load(checkpoint);
        return new LlamaEngine(model, Tokenizer.load(tokenizerFile, model.config().vocabSize()));
    }

    /** The same tokenizer over the base model with {@code adapter} merged in (see {@link LlamaModel#withAdapter}). */
    public LlamaEngine withAdapter(org.llmplatform.llama.lora.LoraAdapter adapter) {
        return new LlamaEngine(model.withAdapter(adapter), tokenizer);
    }

    public LlamaModel model() {
        return model;
    }

    public LlamaConfig config() {
        return model.config();
    }

    public Tokenizer tokenizer() {
        return tokenizer;
    }

    /** The prompt tokens (BOS first) of a chat, per {@link ChatTemplate}. */
    public int[] encodeChat(List<ChatMessage> messages) {
        return tokenizer.encode(ChatTemplate.render(messages), true);
    }

    public Generation generate(int[] prompt, SamplingParams params, Random random) {
        return new Generation(model, tokenizer, prompt, params, random);
    }

    /**
     * The embedding of {@code tokens}: the final hidden state of every token ({@link InferenceSession#hiddenState}),
     * averaged, then scaled to unit length. Mean pooling is what llama.cpp's server applies to a llama model whose
     * file declares no pooling; the unit length is its default normalisation (L2), so a dot product is a cosine.
     */
    public float[] embed(int[] tokens) {
        if (tokens.length == 0 || tokens.length > config().seqLen()) {
            throw new IllegalArgumentException(tokens.length + " tokens do not fit a context of " + config().seqLen());
        }
        InferenceSession session = model.newSession();
        double[] sum = new double[config().dim()];
        for (int pos = 0; pos < tokens.length; pos++) {
            float[] state = session.hiddenState(tokens[pos], pos);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += state[i];
            }
        }
        double norm = 0;
        for (double value : sum) {
            norm += value * value;
        }
        norm = Math.sqrt(norm);
        float[] embedding = new float[sum.length];
        for (int i = 0; i < sum.length; i++) {
            embedding[i] = norm == 0 ? 0f : (float) (sum[i] / norm);
        }
        return embedding;
    }

    /**
     * How likely the model found each token of {@code prompt} after the ones before it: an entry per token from the
     * second on (the first has no context), with the {@code top} most likely alternatives at that position. What an
     * echoed completion reports as its prompt's logprobs.
     */
    public List<GeneratedToken> promptLogprobs(int[] prompt, int top) {
        if (prompt.length > config().seqLen()) {
            throw new IllegalArgumentException(prompt.length + " tokens do not fit a context of " + config().seqLen());
        }
        InferenceSession session = model.newSession();
        List<GeneratedToken> entries = new ArrayList<>(Math.max(0, prompt.length - 1));
        for (int pos = 0; pos + 1 < prompt.length; pos++) {
            float[] logprobs = Generation.logSoftmax(session.forward(prompt[pos], pos));
            int next = prompt[pos + 1];
            entries.add(new GeneratedToken(next, "", Math.max(Generation.LOGPROB_FLOOR, logprobs[next]),
                    Generation.top(logprobs, top)));
        }
        return entries;
    }

    /** A seeded source when the request names a seed (per choice, so n choices differ), else a fresh one. */
    public static Random randomFor(Long seed, int choice) {
        return seed == null ? new Random() : new Random(seed * 1_000_003L + choice);
    }
}
