package org.llmplatform.support.blob;

import io.smallrye.mutiny.Uni;
import org.llmplatform.model.events.BlobReference;

/**
 * Large payloads kept apart from the database and from Kafka records (claim check), addressed by the
 * SHA-256 of their bytes: storing the same bytes twice stores them once and yields the same reference.
 */
public interface BlobStore {

    Uni<BlobReference> put(byte[] content);

    /** The bytes behind the reference, checked against its digest; fails with {@link BlobNotFoundException}. */
    Uni<byte[]> get(BlobReference reference);
}
