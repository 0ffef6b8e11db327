package org.llmplatform.support.blob;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.io.InputStream;
import java.nio.file.Path;
import org.llmplatform.model.events.BlobReference;

/**
 * Large payloads kept apart from the database and from Kafka records (claim check), addressed by the
 * SHA-256 of their bytes: storing the same bytes twice stores them once and yields the same reference.
 * Every service reaches blobs only through this contract; {@code platform.blob.store} picks the backend
 * (the filesystem or S3-compatible object storage). Content streams through: no backend holds a whole blob
 * in memory, and a blob is readable only once all of its bytes are stored.
 */
public interface BlobStore {

    /** Stores the bytes the stream yields up to its end (the caller closes it). */
    Uni<BlobReference> put(InputStream content);

    /** Stores the bytes of a local file, which stays where it is. */
    Uni<BlobReference> put(Path file);

    Uni<BlobReference> put(byte[] content);

    /**
     * The bytes behind the reference as a stream the caller closes, checked against the digest as they are
     * read (a mismatch fails the read that reaches the end); fails with {@link BlobNotFoundException}.
     */
    Uni<InputStream> open(BlobReference reference);

    /** The whole blob in memory: for the small ones (manifests, trajectories) a caller parses at once. */
    Uni<byte[]> get(BlobReference reference);

    Uni<Boolean> exists(BlobReference reference);

    /** Removes the blob; removing one that is not stored changes nothing. */
    Uni<Void> delete(BlobReference reference);

    /** The stored blobs whose digest starts with the given lowercase hex ("" for all of them). */
    Multi<BlobReference> list(String digestPrefix);
}
