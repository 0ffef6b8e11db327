package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;

/**
 * What a trainer reports about a job, published on {@code training.jobs.events} keyed by model id.
 * {@code seq} rises by at least one per event of a job, so the service can drop redeliveries and stale
 * events. {@code type} is one of the {@code TYPE_*} constants; {@code data} carries
 * {@code num_sequences} for training_started, numeric metrics for gradient_step and
 * {@code error_message} for training_failed.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingJobEvent(
        int schemaVersion,
        String jobId,
        String modelId,
        long seq,
        String type,
        Map<String, Object> data,
        Instant occurredAt) {

    public static final int SCHEMA_VERSION = 1;

    public static final String TYPE_TRAINING_STARTED = "training_started";
    public static final String TYPE_GRADIENT_STEP = "gradient_step";
    public static final String TYPE_TRAINING_ENDED = "training_ended";
    public static final String TYPE_TRAINING_FAILED = "training_failed";
    /** Renews the job's lease; never shown to API callers. */
    public static final String TYPE_HEARTBEAT = "heartbeat";
}
