package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A native run's learner as blobs (each an {@link AdapterManifest} URI, docs/training-service.md#adapter-format): the
 * LoRA adapter, and AdamW's two moments with its step count where the optimizer is part of it (null otherwise). In a
 * request it is a saved state to load ({@code checkpointId} names it); in an event, what the executor saved.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LearnerStateRef(
        String checkpointId,
        String adapterUri,
        String firstMomentUri,
        String secondMomentUri,
        Integer optimizerSteps) {

    public boolean withOptimizer() {
        return firstMomentUri != null && secondMomentUri != null && optimizerSteps != null;
    }
}
