package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/** ART's {@code TrajectoryGroup}: rollouts of one scenario, compared with each other by GRPO. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrajectoryGroup(
        List<Trajectory> trajectories,
        List<RolloutException> exceptions,
        Map<String, Object> metadata,
        Map<String, Object> metrics,
        List<String> logs) {

    public List<Trajectory> trajectoriesOrEmpty() {
        return trajectories == null ? List.of() : trajectories;
    }

    public List<RolloutException> exceptionsOrEmpty() {
        return exceptions == null ? List.of() : exceptions;
    }

    public Map<String, Object> metricsOrEmpty() {
        return metrics == null ? Map.of() : metrics;
    }
}
