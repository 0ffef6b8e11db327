package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/** The body of {@code POST /v1/preview/training-jobs} (W&B's {@code CreateTrainingJob}). */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CreateTrainingJob(String modelId, List<TrajectoryGroup> trajectoryGroups, ExperimentalTrainingConfig experimentalConfig) {
}
