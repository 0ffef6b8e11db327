package org.llmplatform.llama;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The stories260K checkpoint the repository ships in models/ (models/README.md), loaded once for the tests. */
final class SharedModels {

    /** The repository's models folder (set by the build; the default assumes the module directory). */
    static final Path DIRECTORY = Path.of(System.getProperty("llama.models.dir", "../models"));
    static final Path CHECKPOINT = DIRECTORY.resolve("stories260K.bin");
    static final Path TOKENIZER = DIRECTORY.resolve("tok512.bin");

    private static LlamaEngine engine;

    private SharedModels() {
    }

    static synchronized LlamaEngine stories260K() {
        if (engine == null) {
            try {
                engine = LlamaEngine.load(CHECKPOINT, TOKENIZER);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return engine;
    }

    static String run(Generation generation) {
        StringBuilder text = new StringBuilder();
        while (!generation.finished()) {
            text.append(generation.next().delta());
        }
        return text.toString();
    }

    static SamplingParams.Builder greedy(int maxTokens) {
        return SamplingParams.builder().temperature(0f).maxTokens(maxTokens);
    }
}
