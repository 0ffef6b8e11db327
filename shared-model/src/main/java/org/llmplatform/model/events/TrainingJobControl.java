package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * An order to every trainer and native-run executor, published on {@code training.jobs.control}: {@code cancel}
 * (keyed by model id) stops the job {@code jobId} and publishes nothing more for it; {@code cancel_operation} (keyed
 * by run id, schema version 2) stops the native run operation {@code operationId} of {@code runId}, its work
 * discarded; {@code close_run} (version 2) drops the run's learner and skips its operations still to come.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingJobControl(
        int schemaVersion,
        String jobId,
        String modelId,
        String runId,
        String operationId,
        String action,
        String reason,
        Instant issuedAt) {

    public static final int SCHEMA_VERSION = 2;

    public static final String ACTION_CANCEL = "cancel";
    public static final String ACTION_CANCEL_OPERATION = "cancel_operation";
    public static final String ACTION_CLOSE_RUN = "close_run";

    public static TrainingJobControl cancelJob(String jobId, String modelId, String reason) {
        return new TrainingJobControl(SCHEMA_VERSION, jobId, modelId, null, null, ACTION_CANCEL, reason, Instant.now());
    }

    public static TrainingJobControl cancelOperation(String runId, String operationId) {
        return new TrainingJobControl(SCHEMA_VERSION, null, null, runId, operationId, ACTION_CANCEL_OPERATION, "cancelled by the caller",
                Instant.now());
    }

    public static TrainingJobControl closeRun(String runId, String reason) {
        return new TrainingJobControl(SCHEMA_VERSION, null, null, runId, null, ACTION_CLOSE_RUN, reason, Instant.now());
    }
}
