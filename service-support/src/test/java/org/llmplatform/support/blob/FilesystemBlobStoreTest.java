package org.llmplatform.support.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.llmplatform.model.events.BlobReference;

class FilesystemBlobStoreTest extends BlobStoreContract {

    @TempDir
    Path root;
    private FilesystemBlobStore store;

    @BeforeEach
    void open() {
        store = new FilesystemBlobStore(root);
    }

    @Override
    protected BlobStore store() {
        return store;
    }

    @Override
    protected void overwriteStored(BlobReference reference, byte[] bytes) throws IOException {
        Files.write(root.resolve(ContentAddress.key(reference.sha256())), bytes);
    }

    @Test
    void blobsLieInTheContentAddressedLayoutAndNoPartialFileStays() throws IOException {
        BlobReference stored = store.put("laid out".getBytes()).await().atMost(WAIT);
        try {
            store.put(GeneratedStream.failingAt(1_000_000, 1, 500_000)).await().atMost(WAIT);
        } catch (RuntimeException expected) {
            // the broken-off source leaves nothing behind
        }

        String digest = stored.sha256();
        assertEquals(List.of(root.resolve("sha256/" + digest.substring(0, 2) + "/" + digest)), files());
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }
}
