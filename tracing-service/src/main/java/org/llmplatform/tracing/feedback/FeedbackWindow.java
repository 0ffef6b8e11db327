package org.llmplatform.tracing.feedback;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.tracing.query.SqlParams;

/**
 * The feedback that {@code feedback/stats} and {@code feedback/payload_schema} read: the project's rows created in
 * {@code [start, end)}, of one {@code feedback_type} when given, of one {@code trigger_ref} when given (a ref ending
 * in {@code :*} takes every version: the rows whose trigger ref starts with what precedes it).
 */
record FeedbackWindow(String projectId, OffsetDateTime start, OffsetDateTime end, String feedbackType, String triggerRef) {

    String whereSql(SqlParams params) {
        List<String> conditions = new ArrayList<>(List.of("f.project_id = " + params.bind(projectId, "text"),
                "f.created_at >= " + params.bind(start, "timestamptz"), "f.created_at < " + params.bind(end, "timestamptz")));
        if (feedbackType != null) {
            conditions.add("f.feedback_type = " + params.bind(feedbackType, "text"));
        }
        if (triggerRef != null && triggerRef.endsWith(":*")) {
            conditions.add("starts_with(f.trigger_ref, " + params.bind(triggerRef.substring(0, triggerRef.length() - 2), "text")
                    + ")");
        } else if (triggerRef != null) {
            conditions.add("f.trigger_ref = " + params.bind(triggerRef, "text"));
        }
        return String.join(" AND ", conditions);
    }
}
