package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * A training job for a trainer to run: one step of {@code modelId} from checkpoint {@code parentStep}
 * (stored at {@code parentArtifactUri}, null for the untrained step 0) to {@code parentStep + 1}.
 * Published on {@code training.jobs.requested}, keyed by model id. {@code kind} says what the step is:
 * {@value #KIND_RL} (also when absent, as in schema version 1), one GRPO step over trajectory groups that
 * travel by reference (a JSON {@code {"trajectory_groups": [...]}} document in the blob store), run with
 * {@code config}; or {@value #KIND_SFT}, supervised fine-tuning whose {@code trajectories} reference is the
 * training file itself (JSONL, one {@code {"messages", "tools"?}} object a line, as ART writes it) and whose
 * settings are {@code sft}. A trainer that does not know a job's kind must leave it alone.
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
        Instant requestedAt,
        String kind,
        SftJobConfig sft) {

    /** Version 2 added {@code kind} and {@code sft}. */
    public static final int SCHEMA_VERSION = 2;
    public static final String KIND_RL = "rl";
    public static final String KIND_SFT = "sft";

    /** The job's kind, {@value #KIND_RL} for a record that names none. */
    public String kindOrRl() {
        return kind == null ? KIND_RL : kind;
    }
}
