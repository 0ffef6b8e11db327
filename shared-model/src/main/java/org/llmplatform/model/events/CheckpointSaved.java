package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A trainer wrote checkpoint {@code step} of a model. Published on {@code training.checkpoints}, keyed by model id.
 * The naming fields let the inference side serve it as {@code wandb-artifact:///entity/project/modelName:step{N}}
 * on top of {@code baseModel}; {@code artifactUri} is the blob-store URI of the PEFT adapter directory.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CheckpointSaved(
        int schemaVersion,
        String modelId,
        String jobId,
        String entity,
        String project,
        String modelName,
        String baseModel,
        int step,
        String artifactUri,
        Map<String, Double> metrics,
        Instant createdAt) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * What makes this record unusable to every consumer (empty when nothing does): a schema version this code does
     * not know, no model id, a negative step. What one consumer needs beyond that it checks itself: the
     * training-service a model id that is one of its UUIDs, a gateway the serving names and the base model.
     */
    public Optional<String> problem() {
        if (schemaVersion < 1 || schemaVersion > SCHEMA_VERSION) {
            return Optional.of("unsupported schema_version " + schemaVersion);
        }
        if (modelId == null || modelId.isBlank()) {
            return Optional.of("model_id is required");
        }
        if (step < 0) {
            return Optional.of("step must be 0 or more, got " + step);
        }
        return Optional.empty();
    }
}
