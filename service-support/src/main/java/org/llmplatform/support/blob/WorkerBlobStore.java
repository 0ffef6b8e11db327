package org.llmplatform.support.blob;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.llmplatform.model.events.BlobReference;

/**
 * The contract over a backend whose calls block (file and socket I/O): each runs on the worker pool, never
 * on an event loop, and the reference checks and digest verification are done here once for every backend.
 */
abstract class WorkerBlobStore implements BlobStore {

    protected abstract BlobReference store(InputStream content) throws IOException;

    protected abstract BlobReference store(Path file) throws IOException;

    protected BlobReference store(byte[] content) throws IOException {
        return store(new ByteArrayInputStream(content));
    }

    /** The stored bytes of the digest, or null when none are stored. */
    protected abstract InputStream read(String digest) throws IOException;

    protected abstract boolean contains(String digest) throws IOException;

    protected abstract void remove(String digest) throws IOException;

    /** The stored blobs under a key prefix of the layout (see {@link ContentAddress#keyPrefix}). */
    protected abstract Stream<BlobReference> listing(String keyPrefix, String digestPrefix) throws IOException;

    @Override
    public Uni<BlobReference> put(InputStream content) {
        return onWorker(() -> store(content));
    }

    @Override
    public Uni<BlobReference> put(Path file) {
        return onWorker(() -> store(file));
    }

    @Override
    public Uni<BlobReference> put(byte[] content) {
        return onWorker(() -> store(content));
    }

    @Override
    public Uni<InputStream> open(BlobReference reference) {
        return onWorker(() -> openVerified(reference));
    }

    @Override
    public Uni<byte[]> get(BlobReference reference) {
        return onWorker(() -> {
            try (InputStream content = openVerified(reference)) {
                return content.readAllBytes();
            }
        });
    }

    @Override
    public Uni<Boolean> exists(BlobReference reference) {
        return onWorker(() -> contains(ContentAddress.digestOf(reference)));
    }

    @Override
    public Uni<Void> delete(BlobReference reference) {
        return onWorker(() -> {
            remove(ContentAddress.digestOf(reference));
            return null;
        });
    }

    @Override
    public Multi<BlobReference> list(String digestPrefix) {
        String keyPrefix = ContentAddress.keyPrefix(digestPrefix);
        return Multi.createFrom().<BlobReference>items(() -> {
            try {
                return listing(keyPrefix, digestPrefix);
            } catch (IOException e) {
                throw new UncheckedIOException("could not list blobs under " + keyPrefix, e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private InputStream openVerified(BlobReference reference) throws IOException {
        String digest = ContentAddress.digestOf(reference);
        InputStream stored = read(digest);
        if (stored == null) {
            throw new BlobNotFoundException("no blob " + reference.uri());
        }
        return new VerifiedInputStream(stored, digest, reference.uri());
    }

    private static <T> Uni<T> onWorker(Callable<T> work) {
        return Uni.createFrom().item(() -> {
            try {
                return work.call();
            } catch (VerifiedInputStream.CorruptBlobException corrupt) {
                throw new BlobNotFoundException(corrupt.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
