package org.llmplatform.support.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.llmplatform.model.events.BlobReference;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * The behaviour every {@link BlobStore} backend must have (each backend's test extends this class and
 * supplies a store over real storage): round trips small and large, streaming without holding a blob in
 * memory, concurrent writers, missing keys, listing, deletion, corruption, and sources that break off.
 */
public abstract class BlobStoreContract {

    protected static final Duration WAIT = Duration.ofMinutes(3);
    private static final long LARGE = 200L * 1024 * 1024;
    /** What a streaming transfer may keep reachable at once: buffers and parts, never the blob. */
    private static final long STREAMING_HEAP_LIMIT = 64L * 1024 * 1024;

    /** The store under test, over storage this test class owns. */
    protected abstract BlobStore store();

    /** Replaces the bytes stored for a reference behind the store's back, as a failing disk would. */
    protected abstract void overwriteStored(BlobReference reference, byte[] bytes) throws IOException;

    @Test
    void aSmallBlobRoundTripsUnderItsDigest() {
        byte[] content = ("small " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);

        BlobReference stored = store().put(content).await().atMost(WAIT);

        assertEquals(sha256(content), stored.sha256());
        assertEquals("blob:sha256:" + stored.sha256(), stored.uri());
        assertEquals(content.length, stored.byteCount());
        assertArrayEquals(content, store().get(stored).await().atMost(WAIT));
        assertTrue(store().exists(stored).await().atMost(WAIT));
    }

    @Test
    void theSameBytesTwiceAreOneBlob() {
        byte[] content = ("twice " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);

        BlobReference first = store().put(content).await().atMost(WAIT);
        BlobReference second = store().put(new ByteArrayInputStream(content)).await().atMost(WAIT);

        assertEquals(first, second);
        assertEquals(List.of(first), store().list(first.sha256()).collect().asList().await().atMost(WAIT));
    }

    @Test
    void anEmptyBlobRoundTrips() {
        BlobReference stored = store().put(new byte[0]).await().atMost(WAIT);
        assertEquals(0, stored.byteCount());
        assertArrayEquals(new byte[0], store().get(stored).await().atMost(WAIT));
    }

    @Test
    void aBlobsChunksForAResponseJoinToItsBytes() {
        for (int size : List.of(0, 1, BlobChunks.CHUNK_BYTES, BlobChunks.CHUNK_BYTES + 1, 3 * BlobChunks.CHUNK_BYTES + 5)) {
            byte[] content = new byte[size];
            new Random(size).nextBytes(content);
            BlobReference stored = store().put(content).await().atMost(WAIT);

            List<byte[]> chunks = BlobChunks.read(store(), stored).collect().asList().await().atMost(WAIT);

            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            chunks.forEach(joined::writeBytes);
            assertArrayEquals(content, joined.toByteArray(), "blob of " + size + " bytes");
            assertTrue(chunks.stream().allMatch(chunk -> chunk.length > 0 && chunk.length <= BlobChunks.CHUNK_BYTES), "chunk sizes");
        }
    }

    @Test
    void aLocalFileIsStoredAndStays(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("upload.bin");
        long seed = System.nanoTime();
        try (InputStream generated = GeneratedStream.of(3_000_000, seed)) {
            Files.copy(generated, file);
        }

        BlobReference stored = store().put(file).await().atMost(WAIT);

        assertEquals(GeneratedStream.digestOf(3_000_000, seed), stored.sha256());
        assertTrue(Files.exists(file));
        assertEquals(stored.sha256(), digestOfStream(stored));
    }

    @Test
    void a200MegabyteBlobStreamsBothWaysWithoutBeingHeldInMemory() throws Exception {
        long seed = System.nanoTime();
        GeneratedStream source = GeneratedStream.of(LARGE, seed);
        BlobReference stored;
        long putGrowth;
        try (HeapWatch heap = HeapWatch.start()) {
            stored = store().put(source).await().atMost(WAIT);
            heap.close();
            putGrowth = heap.peakGrowth();
        }
        assertEquals(source.digest(), stored.sha256());
        assertEquals(LARGE, stored.byteCount());
        assertTrue(putGrowth < STREAMING_HEAP_LIMIT, "writing kept " + putGrowth / 1024 / 1024 + " MB reachable");

        long getGrowth;
        String read;
        try (HeapWatch heap = HeapWatch.start()) {
            read = digestOfStream(stored);
            heap.close();
            getGrowth = heap.peakGrowth();
        }
        assertEquals(stored.sha256(), read);
        assertTrue(getGrowth < STREAMING_HEAP_LIMIT, "reading kept " + getGrowth / 1024 / 1024 + " MB reachable");
    }

    @Test
    void concurrentWritersOfTheSameContentAllGetTheOneReadableBlob() throws Exception {
        long size = 12L * 1024 * 1024;
        long seed = System.nanoTime();
        int writers = 4;
        CyclicBarrier start = new CyclicBarrier(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Callable<BlobReference>> puts = IntStream.range(0, writers)
                    .<Callable<BlobReference>>mapToObj(i -> () -> {
                        start.await();
                        return store().put(GeneratedStream.of(size, seed)).await().atMost(WAIT);
                    }).toList();
            Set<BlobReference> references = pool.invokeAll(puts).stream().map(BlobStoreContract::result).collect(Collectors.toSet());

            assertEquals(1, references.size());
            BlobReference stored = references.iterator().next();
            assertEquals(GeneratedStream.digestOf(size, seed), stored.sha256());
            assertEquals(stored.sha256(), digestOfStream(stored));
            assertEquals(List.of(stored), store().list(stored.sha256()).collect().asList().await().atMost(WAIT));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aMissingBlobIsNotFound() {
        BlobReference missing = ContentAddress.reference(sha256(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)), 36);

        assertFalse(store().exists(missing).await().atMost(WAIT));
        assertThrows(BlobNotFoundException.class, () -> store().get(missing).await().atMost(WAIT));
        assertThrows(BlobNotFoundException.class, () -> store().open(missing).await().atMost(WAIT));
        store().delete(missing).await().atMost(WAIT);
    }

    @Test
    void aReferenceNamingNoDigestIsNotFound() {
        BlobReference notABlob = new BlobReference("file:///etc/passwd", "../../etc/passwd", 1);
        assertThrows(BlobNotFoundException.class, () -> store().get(notABlob).await().atMost(WAIT));
        assertThrows(BlobNotFoundException.class, () -> store().exists(notABlob).await().atMost(WAIT));
    }

    @Test
    void aDeletedBlobIsGone() {
        BlobReference stored = store().put(("deleted " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8)).await().atMost(WAIT);

        store().delete(stored).await().atMost(WAIT);

        assertFalse(store().exists(stored).await().atMost(WAIT));
        assertThrows(BlobNotFoundException.class, () -> store().get(stored).await().atMost(WAIT));
        assertEquals(List.of(), store().list(stored.sha256()).collect().asList().await().atMost(WAIT));
    }

    @Test
    void listingFindsTheBlobsUnderADigestPrefix() {
        List<BlobReference> stored = IntStream.range(0, 5)
                .mapToObj(i -> store().put(("listed " + i + " " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8)).await().atMost(WAIT))
                .toList();

        List<BlobReference> all = store().list("").collect().asList().await().atMost(WAIT);
        assertTrue(all.containsAll(stored), "every stored blob is listed");

        for (BlobReference blob : stored) {
            for (String prefix : List.of(blob.sha256().substring(0, 1), blob.sha256().substring(0, 2), blob.sha256().substring(0, 5))) {
                List<BlobReference> listed = store().list(prefix).collect().asList().await().atMost(WAIT);
                assertTrue(listed.contains(blob), prefix + " lists " + blob.sha256());
                assertTrue(listed.stream().allMatch(other -> other.sha256().startsWith(prefix)), prefix + " lists only its own");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> store().list("../").collect().asList().await().atMost(WAIT));
    }

    @Test
    void corruptedBytesAreNeverPassedOffAsTheBlob() throws IOException {
        BlobReference stored = store().put(("intact " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8)).await().atMost(WAIT);

        overwriteStored(stored, "tampered".getBytes(StandardCharsets.UTF_8));

        assertThrows(BlobNotFoundException.class, () -> store().get(stored).await().atMost(WAIT));
        InputStream read;
        try {
            read = store().open(stored).await().atMost(WAIT);
        } catch (BlobNotFoundException refusedAtOnce) {
            return; // a store that reads the whole blob before answering finds the mismatch there
        }
        try (read) {
            assertThrows(IOException.class, () -> read.transferTo(OutputStream.nullOutputStream()));
        }
    }

    @Test
    void aSourceThatBreaksOffStoresNothing() {
        long size = 20L * 1024 * 1024;
        long seed = System.nanoTime();
        String digest = GeneratedStream.digestOf(size, seed);

        assertThrows(RuntimeException.class, () -> store().put(GeneratedStream.failingAt(size, seed, 11L * 1024 * 1024)).await().atMost(WAIT));

        assertFalse(store().exists(ContentAddress.reference(digest, size)).await().atMost(WAIT));
        assertEquals(List.of(), store().list(digest).collect().asList().await().atMost(WAIT));
    }

    /** The SHA-256 of the blob's bytes as a stream yields them. */
    protected String digestOfStream(BlobReference stored) {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        try (InputStream read = store().open(stored).await().atMost(WAIT);
                OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), sha256)) {
            read.transferTo(sink);
        } catch (IOException e) {
            throw new AssertionError("could not read " + stored.uri(), e);
        }
        return ContentAddress.hex(sha256);
    }

    protected static String sha256(byte[] content) {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        sha256.update(content);
        return ContentAddress.hex(sha256);
    }

    private static <T> T result(Future<T> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
