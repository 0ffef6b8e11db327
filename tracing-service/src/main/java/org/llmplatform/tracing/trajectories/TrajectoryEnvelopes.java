package org.llmplatform.tracing.trajectories;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.common.StrictRequest;

/** The request and response of {@code POST /calls/trajectories} (docs/tracing-service.md#calls-to-trajectories). */
final class TrajectoryEnvelopes {

    /**
     * @param format     {@code rl} (ART trajectory groups) or {@code sft} (the lines of an SFT training file)
     * @param reward     {@code reaction} (👍 1, 👎 0) or {@code feedback:<feedback_type>} (its number)
     * @param groupBy    {@code prompt} (one group per distinct prompt) or {@code selection} (one group of all)
     * @param minReward  for {@code sft}: only calls whose reward is at least this
     */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TrajectoriesReq(String projectId, List<String> callIds, String format, String reward, String groupBy,
            Double minReward) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TrajectoriesRes(List<JsonNode> trajectoryGroups, List<JsonNode> lines, List<Skipped> skipped) {
    }

    /** A selected call that did not become a trajectory, and why. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Skipped(String callId, String reason) {
    }

    private TrajectoryEnvelopes() {
    }
}
