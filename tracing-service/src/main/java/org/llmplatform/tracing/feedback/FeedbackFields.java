package org.llmplatform.tracing.feedback;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.tracing.query.FieldPaths;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.RowTable;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlType;
import org.llmplatform.tracing.query.SqlValue;
import org.llmplatform.tracing.query.SqlValue.Column;
import org.llmplatform.tracing.query.SqlValue.JsonPath;

/**
 * The fields of {@code tracing.feedback f} (docs/tracing-service.md#feedback-and-cost-fields): columns, JSON paths below
 * {@code payload}, and the scorer maps by key ({@code scorer_ratings._rating_}).
 */
public final class FeedbackFields implements RowTable {

    public static final FeedbackFields INSTANCE = new FeedbackFields();

    private static final List<String> COLUMNS = List.of("id", "project_id", "weave_ref", "svc_user_id", "creator",
            "created_at", "feedback_type", "payload", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref", "queue_id",
            "scorer_tags", "scorer_tag_reasons", "scorer_tag_confidences", "scorer_ratings", "scorer_rating_reasons",
            "scorer_rating_confidences", "span_agent_name", "span_agent_version", "span_status_code", "span_conversation_id",
            "span_trace_id", "scorer_trace_id");

    private static final Set<String> TEXT_COLUMNS = Set.of("id", "project_id", "weave_ref", "svc_user_id", "creator",
            "feedback_type", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref", "queue_id", "span_agent_name",
            "span_agent_version", "span_status_code", "span_conversation_id", "span_trace_id", "scorer_trace_id");

    /** JSON columns read below their top level: the payload, and the scorer maps by key (the reference's Map columns). */
    private static final Set<String> DOCUMENT_COLUMNS = Set.of("payload", "scorer_tag_reasons", "scorer_tag_confidences",
            "scorer_ratings", "scorer_rating_reasons", "scorer_rating_confidences");

    private static final Set<String> NEVER_NULL = Set.of("id", "project_id", "weave_ref", "created_at", "feedback_type",
            "scorer_tags", "scorer_tag_reasons", "scorer_tag_confidences", "scorer_ratings", "scorer_rating_reasons",
            "scorer_rating_confidences", "span_agent_name", "span_agent_version", "span_status_code", "span_conversation_id",
            "span_trace_id", "scorer_trace_id");

    private static final Map<String, String> WB_ALIASES = Map.of("wb_user_id", "svc_user_id");

    private FeedbackFields() {
    }

    @Override
    public SqlValue resolve(String field, SqlParams params) {
        String name = canonical(field);
        if (TEXT_COLUMNS.contains(name)) {
            return new Column("f." + name, SqlType.TEXT);
        }
        if (name.equals("created_at")) {
            return new Column("f.created_at", SqlType.TIMESTAMP);
        }
        if (name.equals("scorer_tags")) {
            return new JsonPath("to_jsonb(f.scorer_tags)", params.bind(new String[0], "text[]"));
        }
        List<String> path = FieldPaths.split(name);
        if (DOCUMENT_COLUMNS.contains(path.get(0))) {
            return new JsonPath("f." + path.get(0), params.bind(path.subList(1, path.size()).toArray(String[]::new), "text[]"));
        }
        throw unknown(field);
    }

    @Override
    public String from() {
        return "tracing.feedback f";
    }

    @Override
    public String idColumn() {
        return "f.id";
    }

    @Override
    public List<String> columns() {
        return COLUMNS;
    }

    @Override
    public List<String> defaultOrder() {
        return List.of("f.created_at", "f.id");
    }

    /** Columns as they are (datetimes as API text), payload paths as the JSON found there. */
    @Override
    public String jsonValue(String field, SqlParams params) {
        String name = canonical(field);
        if (name.equals("created_at")) {
            return "to_jsonb(tracing.iso_utc(f.created_at))";
        }
        if (COLUMNS.contains(name)) {
            return "to_jsonb(f." + name + ")";
        }
        List<String> path = FieldPaths.split(name);
        if (DOCUMENT_COLUMNS.contains(path.get(0))) {
            return "(f." + path.get(0) + " #> " + params.bind(path.subList(1, path.size()).toArray(String[]::new), "text[]") + ")";
        }
        throw unknown(field);
    }

    @Override
    public boolean neverNull(String field) {
        return NEVER_NULL.contains(canonical(field));
    }

    private static String canonical(String field) {
        return WB_ALIASES.getOrDefault(field, field);
    }

    private static InvalidQueryException unknown(String field) {
        return InvalidQueryException.unsupported("Unknown field: " + field);
    }
}
