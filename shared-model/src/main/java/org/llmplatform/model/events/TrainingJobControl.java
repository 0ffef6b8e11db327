package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * An order to the trainer running (or about to run) a job, published on {@code training.jobs.control}
 * keyed by model id. The only action is {@code cancel}: stop the job and publish nothing more for it.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingJobControl(
        int schemaVersion,
        String jobId,
        String modelId,
        String action,
        String reason,
        Instant issuedAt) {

    public static final int SCHEMA_VERSION = 1;

    public static final String ACTION_CANCEL = "cancel";
}
