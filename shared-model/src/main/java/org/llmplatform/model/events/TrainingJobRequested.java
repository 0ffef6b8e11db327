package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * A training job for a trainer to run: one RL step of {@code modelId} from checkpoint {@code parentStep}
 * (stored at {@code parentArtifactUri}, null for the untrained step 0) to {@code parentStep + 1}.
 * Published on {@code training.jobs.requested}, keyed by model id; the trajectory groups travel by
 * reference (a JSON {@code {"trajectory_groups": [...]}} document in the blob store).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingJobRequested(
        int schemaVersion,
        String jobId,
        String modelId,
        String entity,
        String project,
        String modelName,
        String baseModel,
        int parentStep,
        String parentArtifactUri,
        TrainingJobConfig config,
        BlobReference trajectories,
        Instant requestedAt) {

    public static final int SCHEMA_VERSION = 1;
}
