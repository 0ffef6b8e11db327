package org.llmplatform.llama;

import java.io.IOException;
import java.nio.file.Path;
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

    /** A seeded source when the request names a seed (per choice, so n choices differ), else a fresh one. */
    public static Random randomFor(Long seed, int choice) {
        return seed == null ? new Random() : new Random(seed * 1_000_003L + choice);
    }
}
