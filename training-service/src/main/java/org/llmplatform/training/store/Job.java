package org.llmplatform.training.store;

import java.time.Instant;
import java.util.UUID;
import org.llmplatform.model.events.BlobReference;

/**
 * A training job. {@code parentStep} and {@code dispatchedAt} are set once the job was handed to the
 * trainers; {@code endReported} means the trainer reported the end and the new checkpoint is awaited. For an
 * {@link JobKind#SFT} job, {@code trajectories} is the training file and {@code configJson} an {@code SftJobConfig}.
 */
public record Job(
        UUID id,
        UUID modelId,
        JobStatus status,
        String requestDigest,
        BlobReference trajectories,
        String configJson,
        Integer parentStep,
        Instant dispatchedAt,
        long lastSeq,
        boolean endReported,
        String errorMessage,
        Instant createdAt,
        Instant trainingStart,
        Instant trainingEnd,
        JobKind kind) {

    public boolean dispatched() {
        return dispatchedAt != null;
    }
}
