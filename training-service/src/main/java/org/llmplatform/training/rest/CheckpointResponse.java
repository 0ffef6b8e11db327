package org.llmplatform.training.rest;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.training.store.Checkpoint;

/** W&B's {@code CheckpointResponse}. */
@RegisterForReflection
public record CheckpointResponse(UUID id, int step, Map<String, Double> metrics) {

    static CheckpointResponse of(Checkpoint checkpoint) {
        return new CheckpointResponse(checkpoint.id(), checkpoint.step(), checkpoint.metrics());
    }
}
