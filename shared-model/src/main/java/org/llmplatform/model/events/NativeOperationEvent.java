package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * What an executor reports about a native run operation, on {@code training.runs.events} keyed by run id.
 * {@code seq} rises per operation and executor, so redeliveries are dropped. {@code running} starts it (and binds the
 * run to {@code executor}), {@code heartbeat} renews its lease; {@code succeeded} carries the {@code result} in the
 * shapes ART reads, and for {@code save_weights_for_sampler} and {@code save_state} the blobs written in
 * {@code saved}, which the service registers; {@code failed} carries an error code and message ({@code learner_lost}:
 * the executor does not hold the run's learner, and the run fails); {@code cancelled} ends it discarded.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NativeOperationEvent(
        int schemaVersion,
        String operationId,
        String runId,
        String executor,
        long seq,
        String type,
        JsonNode result,
        LearnerStateRef saved,
        String errorCode,
        String errorMessage,
        Instant occurredAt) {

    public static final int SCHEMA_VERSION = 1;

    public static final String TYPE_RUNNING = "running";
    public static final String TYPE_HEARTBEAT = "heartbeat";
    public static final String TYPE_SUCCEEDED = "succeeded";
    public static final String TYPE_FAILED = "failed";
    public static final String TYPE_CANCELLED = "cancelled";

    public static final String LEARNER_LOST = "learner_lost";
}
