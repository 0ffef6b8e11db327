package org.llmplatform.training;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Trajectory groups shaped as ART's {@code model_dump(mode="json")} writes them. */
public final class Trajectories {

    /** A trajectory: system and user messages, then a sampled Choice with token-id logprobs, as vLLM returns it for ART. */
    public static Map<String, Object> trajectory(double reward, Map<String, Object> metrics) {
        Map<String, Object> logprob = new LinkedHashMap<>();
        logprob.put("token", "token_id:42");
        logprob.put("bytes", List.of(104, 105));
        logprob.put("logprob", -0.25);
        logprob.put("top_logprobs", List.of(Map.of("token", "token_id:42", "bytes", List.of(104, 105), "logprob", -0.25)));
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", "hi");
        message.put("refusal", null);
        message.put("tool_calls", null);
        message.put("reasoning_content", null);
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("finish_reason", "stop");
        choice.put("index", 0);
        choice.put("message", message);
        choice.put("logprobs", Map.of("content", List.of(logprob), "refusal", List.of()));
        choice.put("stop_reason", null);
        choice.put("token_ids", List.of(42));
        Map<String, Object> trajectory = new LinkedHashMap<>();
        trajectory.put("messages_and_choices", List.of(
                Map.of("role", "system", "content", "You are terse."),
                Map.of("role", "user", "content", List.of(Map.of("type", "text", "text", "Say hi"))),
                choice));
        trajectory.put("tools", List.of(Map.of("type", "function", "function", Map.of("name", "lookup", "parameters", Map.of()))));
        trajectory.put("additional_histories", List.of(Map.of("messages_and_choices",
                List.of(Map.of("role", "user", "content", "sub-task"), choice), "tools", List.of())));
        trajectory.put("reward", reward);
        trajectory.put("initial_policy_version", null);
        trajectory.put("final_policy_version", null);
        trajectory.put("metrics", metrics);
        trajectory.put("auto_metrics", Map.of());
        trajectory.put("metadata", Map.of("scenario_id", "s-1"));
        trajectory.put("logs", List.of("rolled out"));
        trajectory.put("exchanges", List.of());
        return trajectory;
    }

    public static Map<String, Object> group(List<Map<String, Object>> trajectories) {
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("trajectories", trajectories);
        group.put("exceptions", List.of());
        group.put("metadata", Map.of());
        group.put("metrics", Map.of());
        group.put("logs", List.of());
        return group;
    }

    /** Groups of rewards, each trajectory with no metrics. */
    public static List<Map<String, Object>> groupsOfRewards(double[]... rewards) {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (double[] groupRewards : rewards) {
            List<Map<String, Object>> trajectories = new ArrayList<>();
            for (double reward : groupRewards) {
                trajectories.add(trajectory(reward, Map.of()));
            }
            groups.add(group(trajectories));
        }
        return groups;
    }

    private Trajectories() {
    }
}
