package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * ART's {@code Trajectory} as {@code model_dump(mode="json")} writes it. {@code reward} defaults to 0
 * as in the newer schema; metric values are numbers or booleans, null where Python had NaN.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Trajectory(
        List<ConversationItem> messagesAndChoices,
        List<JsonNode> tools,
        List<History> additionalHistories,
        Double reward,
        Integer initialPolicyVersion,
        Integer finalPolicyVersion,
        Map<String, Object> metrics,
        Map<String, Object> autoMetrics,
        Map<String, Object> metadata,
        List<String> logs) {

    public double rewardOrZero() {
        return reward == null ? 0.0 : reward;
    }

    public Map<String, Object> metricsOrEmpty() {
        return metrics == null ? Map.of() : metrics;
    }

    public List<History> additionalHistoriesOrEmpty() {
        return additionalHistories == null ? List.of() : additionalHistories;
    }
}
