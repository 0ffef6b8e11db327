package org.llmplatform.support.blob;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.llmplatform.model.events.BlobReference;

/**
 * A blob stream as chunks an HTTP response writes one after another: each chunk is read on the worker pool
 * only when the previous one was written, so a slow client holds back the reads instead of filling memory.
 */
public final class BlobChunks {

    static final int CHUNK_BYTES = 64 * 1024;
    private static final byte[] END = new byte[0];

    /**
     * The blob's bytes for a response: one that fits a chunk is read whole in one trip to the worker pool and
     * written at once; a larger one streams chunk by chunk ({@link #of}). Small files are most of the traffic,
     * and the hops between threads cost them more than their bytes do.
     */
    public static Multi<byte[]> read(BlobStore store, BlobReference reference) {
        if (reference.byteCount() <= CHUNK_BYTES) {
            return store.get(reference).toMulti().filter(bytes -> bytes.length > 0);
        }
        return store.open(reference).onItem().transformToMulti(BlobChunks::of);
    }

    private static Multi<byte[]> of(InputStream content) {
        return Multi.createBy().repeating()
                .uni(() -> Uni.createFrom().item(() -> next(content)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                .until(chunk -> chunk == END)
                .onTermination().invoke(() -> close(content));
    }

    private static byte[] next(InputStream content) {
        try {
            byte[] chunk = content.readNBytes(CHUNK_BYTES);
            return chunk.length == 0 ? END : chunk;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read a blob", e);
        }
    }

    private static void close(InputStream content) {
        try {
            content.close();
        } catch (IOException ignored) {
            // the response is over either way
        }
    }

    private BlobChunks() {
    }
}
