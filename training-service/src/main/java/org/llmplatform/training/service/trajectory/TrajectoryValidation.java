package org.llmplatform.training.service.trajectory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.llmplatform.model.errors.ValidationIssue;

/**
 * What pydantic would refuse in trajectory groups that Jackson accepted: missing required lists,
 * metric values that are not numbers or booleans, unknown message roles, Choices without a message.
 * Each issue's {@code loc} walks from the body down to the field.
 */
public final class TrajectoryValidation {

    private final List<ValidationIssue> issues = new ArrayList<>();

    public static List<ValidationIssue> check(List<TrajectoryGroup> groups, List<Object> loc) {
        TrajectoryValidation validation = new TrajectoryValidation();
        for (int g = 0; g < groups.size(); g++) {
            validation.group(groups.get(g), append(loc, g));
        }
        return validation.issues;
    }

    private void group(TrajectoryGroup group, List<Object> loc) {
        if (group == null) {
            issues.add(new ValidationIssue("model_attributes_type", loc, "Input should be a valid dictionary or object", null));
            return;
        }
        if (group.trajectories() == null) {
            missing(append(loc, "trajectories"));
        } else {
            for (int t = 0; t < group.trajectories().size(); t++) {
                trajectory(group.trajectories().get(t), append(append(loc, "trajectories"), t));
            }
        }
        metrics(group.metrics(), append(loc, "metrics"));
    }

    private void trajectory(Trajectory trajectory, List<Object> loc) {
        if (trajectory == null) {
            issues.add(new ValidationIssue("model_attributes_type", loc, "Input should be a valid dictionary or object", null));
            return;
        }
        conversation(trajectory.messagesAndChoices(), append(loc, "messages_and_choices"));
        List<History> histories = trajectory.additionalHistoriesOrEmpty();
        for (int h = 0; h < histories.size(); h++) {
            List<Object> historyLoc = append(append(loc, "additional_histories"), h);
            if (histories.get(h) == null) {
                issues.add(new ValidationIssue("model_attributes_type", historyLoc, "Input should be a valid dictionary or object", null));
            } else {
                conversation(histories.get(h).messagesAndChoices(), append(historyLoc, "messages_and_choices"));
            }
        }
        metrics(trajectory.metrics(), append(loc, "metrics"));
        metrics(trajectory.autoMetrics(), append(loc, "auto_metrics"));
    }

    private void conversation(List<ConversationItem> items, List<Object> loc) {
        if (items == null) {
            missing(loc);
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            List<Object> itemLoc = append(loc, i);
            ConversationItem item = items.get(i);
            if (item == null) {
                issues.add(new ValidationIssue("model_attributes_type", itemLoc, "Input should be a valid dictionary or object", null));
            } else if (item instanceof ChatMessage message) {
                role(message, append(itemLoc, "role"));
            } else if (item instanceof Choice choice) {
                if (choice.message() == null) {
                    missing(append(itemLoc, "message"));
                } else if (!"assistant".equals(choice.message().role()) && choice.message().role() != null) {
                    issues.add(new ValidationIssue("literal_error", append(append(itemLoc, "message"), "role"),
                            "Input should be 'assistant'", choice.message().role()));
                }
            }
        }
    }

    private void role(ChatMessage message, List<Object> loc) {
        if (message.role() == null || !ChatMessage.ROLES.contains(message.role())) {
            issues.add(new ValidationIssue("literal_error", loc,
                    "Input should be 'system', 'developer', 'user', 'assistant', 'tool' or 'function'", message.role()));
        }
    }

    private void metrics(Map<String, Object> metrics, List<Object> loc) {
        if (metrics == null) {
            return;
        }
        metrics.forEach((name, value) -> {
            if (value != null && !(value instanceof Number) && !(value instanceof Boolean)) {
                issues.add(new ValidationIssue("float_type", append(loc, name), "Input should be a valid number", value));
            }
        });
    }

    private void missing(List<Object> loc) {
        issues.add(new ValidationIssue("missing", loc, "Field required", null));
    }

    private static List<Object> append(List<Object> loc, Object next) {
        List<Object> longer = new ArrayList<>(loc);
        longer.add(next);
        return longer;
    }

    private TrajectoryValidation() {
    }
}
