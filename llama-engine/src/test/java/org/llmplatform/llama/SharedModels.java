package org.llmplatform.llama;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The stories260K checkpoint from the shared models folder; tests skip when it is not there. */
final class SharedModels {

    /** The repository's sibling folder shared/models (set by the build; the default assumes the module directory). */
    static final Path DIRECTORY = Path.of(System.getProperty("llama.models.dir", "../../shared/models"));
    static final Path CHECKPOINT = DIRECTORY.resolve("stories260K.bin");
    static final Path TOKENIZER = DIRECTORY.resolve("tok512.bin");

    private static LlamaEngine engine;

    private SharedModels() {
    }

    static synchronized LlamaEngine stories260K() {
        assumeTrue(Files.isRegularFile(CHECKPOINT) && Files.isRegularFile(TOKENIZER),
                "stories260K.bin and tok512.bin are not in " + DIRECTORY.toAbsolutePath());
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
