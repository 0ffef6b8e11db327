package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;

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
}
