package org.llmplatform.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.support.blob.BlobNotFoundException;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.testing.PlatformTestResources;

/** The filesystem blob store the job payloads go through, as configured for this service. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class BlobStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    BlobStore blobs;

    @Test
    void theSameBytesGiveTheSameReferenceAndComeBackIntact() {
        byte[] content = ("{\"trajectory_groups\":[]," + UUID.randomUUID() + "}").getBytes(StandardCharsets.UTF_8);

        BlobReference first = blobs.put(content).await().atMost(WAIT);
        BlobReference second = blobs.put(content).await().atMost(WAIT);

        assertEquals(first, second);
        assertEquals("blob:sha256:" + first.sha256(), first.uri());
        assertEquals(content.length, first.byteCount());
        assertArrayEquals(content, blobs.get(first).await().atMost(WAIT));
    }

    @Test
    void aCorruptOrMissingBlobIsNotFound() throws Exception {
        BlobReference stored = blobs.put(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)).await().atMost(WAIT);
        Files.writeString(Path.of("target/test-blobs/sha256", stored.sha256().substring(0, 2), stored.sha256()), "tampered");

        assertThrows(BlobNotFoundException.class, () -> blobs.get(stored).await().atMost(WAIT));
        assertThrows(BlobNotFoundException.class, () -> blobs.get(new BlobReference("blob:sha256:" + "0".repeat(64), "0".repeat(64), 1))
                .await().atMost(WAIT));
    }
}
