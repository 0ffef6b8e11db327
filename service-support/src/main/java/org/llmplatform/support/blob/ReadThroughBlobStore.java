package org.llmplatform.support.blob;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.llmplatform.model.events.BlobReference;

/**
 * A store read through a local copy: the first read of a blob copies it from the shared store into a local
 * folder, later reads are served from there. Blobs never change under a digest, so a copy never goes stale.
 * The gateway keeps what it serves this way, instead of mounting another service's volume.
 */
public final class ReadThroughBlobStore implements BlobStore, AutoCloseable {

    private final BlobStore shared;
    private final BlobStore local;

    public ReadThroughBlobStore(BlobStore shared, BlobStore local) {
        this.shared = shared;
        this.local = local;
    }

    @Override
    public Uni<BlobReference> put(InputStream content) {
        return shared.put(content);
    }

    @Override
    public Uni<BlobReference> put(Path file) {
        return shared.put(file);
    }

    @Override
    public Uni<BlobReference> put(byte[] content) {
        return shared.put(content);
    }

    @Override
    public Uni<InputStream> open(BlobReference reference) {
        return copied(reference).chain(() -> local.open(reference));
    }

    @Override
    public Uni<byte[]> get(BlobReference reference) {
        return copied(reference).chain(() -> local.get(reference));
    }

    @Override
    public Uni<Boolean> exists(BlobReference reference) {
        return local.exists(reference).chain(cached -> cached ? Uni.createFrom().item(true) : shared.exists(reference));
    }

    @Override
    public Uni<Void> delete(BlobReference reference) {
        return shared.delete(reference).chain(() -> local.delete(reference));
    }

    @Override
    public Multi<BlobReference> list(String digestPrefix) {
        return shared.list(digestPrefix);
    }

    /** Copies the blob into the local folder unless it is there; the copy streams and is verified on the way. */
    private Uni<Void> copied(BlobReference reference) {
        return local.exists(reference).chain(cached -> cached
                ? Uni.createFrom().voidItem()
                : shared.open(reference).chain(stream -> local.put(stream).eventually(() -> close(stream))).replaceWithVoid());
    }

    private static void close(InputStream stream) {
        try {
            stream.close();
        } catch (IOException ignored) {
            // the copy is done or failed already
        }
    }

    @Override
    public void close() throws Exception {
        if (shared instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
