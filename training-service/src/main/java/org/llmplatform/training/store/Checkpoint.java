package org.llmplatform.training.store;

import java.util.Map;
import java.util.UUID;

/** One saved step of a model, with the metrics recorded for it. */
public record Checkpoint(UUID id, int step, Map<String, Double> metrics) {

    public Checkpoint {
        metrics = Map.copyOf(metrics);
    }
}
