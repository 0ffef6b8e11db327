package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/** The body of {@code POST /v1/preview/models/{id}/log} (W&B's {@code LogRequest}); ART also sends {@code model_id}, ignored. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LogRequest(String split, List<TrajectoryGroup> trajectoryGroups) {
}
