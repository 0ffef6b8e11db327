package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** The answer to {@code DELETE .../checkpoints}: how many of the asked steps were deleted, and which were not there. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CheckpointDeletion(int deletedCount, List<Integer> notFoundSteps) {
}
