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

/** The fields of {@code tracing.feedback f} (docs/tracing-service.md#feedback-and-cost-fields): columns, and JSON paths below {@code payload}. */
public final class FeedbackFields implements RowTable {

    public static final FeedbackFields INSTANCE = new FeedbackFields();

    private static final List<String> COLUMNS = List.of("id", "project_id", "weave_ref", "svc_user_id", "creator",
            "created_at", "feedback_type", "payload", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref", "queue_id");

    private static final Set<String> TEXT_COLUMNS = Set.of("id", "project_id", "weave_ref", "svc_user_id", "creator",
            "feedback_type", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref", "queue_id");

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
        List<String> path = FieldPaths.split(name);
        if (path.get(0).equals("payload")) {
            return new JsonPath("f.payload", params.bind(path.subList(1, path.size()).toArray(String[]::new), "text[]"));
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
        if (path.get(0).equals("payload")) {
            return "(f.payload #> " + params.bind(path.subList(1, path.size()).toArray(String[]::new), "text[]") + ")";
        }
        throw unknown(field);
    }

    @Override
    public boolean neverNull(String field) {
        return Set.of("id", "project_id", "weave_ref", "created_at", "feedback_type").contains(canonical(field));
    }

    private static String canonical(String field) {
        return WB_ALIASES.getOrDefault(field, field);
    }

    private static InvalidQueryException unknown(String field) {
        return InvalidQueryException.unsupported("Unknown field: " + field);
    }
}
