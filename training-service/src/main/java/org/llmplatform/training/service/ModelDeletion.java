package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.UUID;

/** W&B's answer to {@code DELETE /v1/preview/models/{id}}; this service keeps no W&B run, so none is deleted. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelDeletion(UUID modelId, int deletedCheckpoints, boolean deletedRun) {
}
