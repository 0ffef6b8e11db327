package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.training.store.Checkpoint;

/** W&B's {@code CheckpointResponse}, plus when the step was saved (ART ignores fields it does not know). */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CheckpointResponse(UUID id, int step, Map<String, Double> metrics, Instant createdAt) {

    static CheckpointResponse of(Checkpoint checkpoint) {
        return new CheckpointResponse(checkpoint.id(), checkpoint.step(), checkpoint.metrics(), checkpoint.createdAt());
    }
}
