package org.llmplatform.llama;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointLoadingTest {

    @TempDir
    Path folder;

    private Path header(int... values) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4 + 64).order(ByteOrder.LITTLE_ENDIAN);
        for (int value : values) {
            bytes.putInt(value);
        }
        Path file = folder.resolve("model.bin");
        Files.write(file, bytes.array());
        return file;
    }

    @Test
    void aFileShorterThanItsHeaderSaysIsRefused() throws IOException {
        IOException refused = assertThrows(IOException.class, () -> LlamaModel.load(header(64, 172, 5, 8, 4, 512, 512)));
        assertTrue(refused.getMessage().contains("shorter than its header"), refused.getMessage());
    }

    @Test
    void inconsistentHeadCountsAreRefusedWithTheHeader() throws IOException {
        IOException refused = assertThrows(IOException.class, () -> LlamaModel.load(header(64, 172, 5, 7, 4, 512, 512)));
        assertTrue(refused.getMessage().contains("n_heads 7"), refused.getMessage());
    }
}
