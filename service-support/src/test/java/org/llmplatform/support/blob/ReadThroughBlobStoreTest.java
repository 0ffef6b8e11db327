package org.llmplatform.support.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.llmplatform.model.events.BlobReference;

class ReadThroughBlobStoreTest extends BlobStoreContract {

    @TempDir
    Path folder;
    private FilesystemBlobStore shared;
    private FilesystemBlobStore local;
    private ReadThroughBlobStore store;

    @BeforeEach
    void open() {
        shared = new FilesystemBlobStore(folder.resolve("shared"));
        local = new FilesystemBlobStore(folder.resolve("local"));
        store = new ReadThroughBlobStore(shared, local);
    }

    @Override
    protected BlobStore store() {
        return store;
    }

    @Override
    protected void overwriteStored(BlobReference reference, byte[] bytes) throws IOException {
        Path stored = folder.resolve("shared").resolve(ContentAddress.key(reference.sha256()));
        Files.write(stored, bytes);
    }

    @Test
    void aBlobReadOnceIsServedFromTheLocalCopy() {
        byte[] content = "a checkpoint".getBytes(StandardCharsets.UTF_8);
        BlobReference stored = store.put(content).await().atMost(WAIT);
        assertFalse(local.exists(stored).await().atMost(WAIT), "writes go to the shared store only");

        assertArrayEquals(content, store.get(stored).await().atMost(WAIT));
        shared.delete(stored).await().atMost(WAIT);

        assertTrue(local.exists(stored).await().atMost(WAIT));
        assertArrayEquals(content, store.get(stored).await().atMost(WAIT));
    }
}
