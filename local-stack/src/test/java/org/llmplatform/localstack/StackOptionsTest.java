package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackOptionsTest {

    /** The repository this module is built in: it ships models/stories260K.bin and models/tok512.bin. */
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void withNoFlagsTheShippedModelIsServedFromTheRepository() {
        StackOptions options = StackOptions.parse(new String[0], REPOSITORY);

        assertEquals(Optional.of(REPOSITORY.resolve("models/stories260K.bin")), options.model());
        assertEquals(Optional.of(REPOSITORY.resolve("models/tok512.bin")), options.tokenizer());
        assertEquals(Optional.of("stories260K"), options.modelId());
        assertTrue(Files.isRegularFile(options.model().get()), "the repository ships " + options.model().get());
    }

    @Test
    void theConsolesHttpsPortIs8443UnlessNamed() {
        assertEquals(8443, StackOptions.parse(new String[0], REPOSITORY).consoleHttpsPort());
        assertEquals(9305, StackOptions.parse(new String[] {"--console-https-port", "9305"}, REPOSITORY).consoleHttpsPort());
    }

    @Test
    void noModelServesNone() {
        StackOptions options = StackOptions.parse(new String[] {"--no-model"}, REPOSITORY);

        assertEquals(Optional.empty(), options.model());
        assertEquals(Optional.empty(), options.tokenizer());
        assertEquals(Optional.empty(), options.modelId());
    }

    @Test
    void anotherCheckpointIsServedUnderItsFileName(@TempDir Path folder) throws Exception {
        Path checkpoint = Files.write(folder.resolve("tales-15M.bin"), new byte[] {1});
        Path tokenizer = Files.write(folder.resolve("tok32000.bin"), new byte[] {1});

        StackOptions options = StackOptions.parse(new String[] {"--model", checkpoint.toString(), "--tokenizer", tokenizer.toString()}, REPOSITORY);

        assertEquals(Optional.of(checkpoint), options.model());
        assertEquals(Optional.of(tokenizer), options.tokenizer());
        assertEquals(Optional.of("tales-15M"), options.modelId());
    }

    @Test
    void noModelWithAModelIsRefused() {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class, () -> StackOptions.parse(
                new String[] {"--no-model", "--model", "../models/stories260K.bin", "--tokenizer", "../models/tok512.bin"}, REPOSITORY));

        assertEquals("--no-model and --model: choose one", refused.getMessage());
    }

    @Test
    void aModelWithoutItsTokenizerIsRefused() {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class,
                () -> StackOptions.parse(new String[] {"--model", "../models/stories260K.bin"}, REPOSITORY));

        assertEquals("--model and --tokenizer go together", refused.getMessage());
    }

    @Test
    void aCheckoutWithoutTheShippedModelSaysHowToGoOn(@TempDir Path emptyCheckout) {
        StackOptions.UsageException refused = assertThrows(StackOptions.UsageException.class,
                () -> StackOptions.parse(new String[0], emptyCheckout));

        assertEquals("models/stories260K.bin is missing from " + emptyCheckout + " (git checkout -- models restores it),"
                + " or choose another model with --model/--tokenizer, or none with --no-model", refused.getMessage());
    }
}
