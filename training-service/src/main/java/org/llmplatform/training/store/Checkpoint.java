package org.llmplatform.training.store;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** One saved step of a model, with the metrics recorded for it. */
public record Checkpoint(UUID id, int step, Map<String, Double> metrics, Instant createdAt) {

    public Checkpoint {
        metrics = Map.copyOf(metrics);
    }
}
