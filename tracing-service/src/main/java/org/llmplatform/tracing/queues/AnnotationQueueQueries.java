package org.llmplatform.tracing.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * The listing statements of queues and queue items, built as the reference builds them: a sort key on a field it
 * does not sort by is dropped, {@code id ASC} always breaks ties, and with no usable key queues come newest first and
 * items oldest first.
 */
final class AnnotationQueueQueries {

    /** The equality filters of an items query (null: no filter) and the states kept (null or empty: all). */
    record ItemsFilter(String id, String callId, String callOpName, String callTraceId, String addedBy,
            List<String> annotationStates) {
    }

    private static final Set<String> QUEUE_SORT_FIELDS = Set.of("id", "name", "created_at", "updated_at");
    /** Text sorts by code point, as ClickHouse compares strings, whatever the database's collation. */
    private static final Set<String> TEXT_SORT_FIELDS = Set.of("id", "name", "call_op_name");
    private static final Set<String> ITEM_SORT_FIELDS = Set.of("call_started_at", "call_op_name", "created_at",
            "updated_at");

    /**
     * An item's state is that of its most recently updated progress row, whoever the annotator; with none it is
     * unstarted. The position counts the items of the filtered queue before the state filter, as the reference's.
     */
    private static final String ITEMS = """
            SELECT qi.id, qi.project_id, qi.queue_id, qi.call_id, qi.call_started_at, qi.call_ended_at, qi.call_op_name,
                qi.call_trace_id, qi.display_fields, qi.added_by, qi.created_at, qi.created_by, qi.updated_at,
                qi.deleted_at, coalesce(p.annotation_state, 'unstarted') AS annotation_state,
                p.annotator_id AS annotator_user_id%s
            FROM tracing.annotation_queue_items qi
            LEFT JOIN LATERAL (
                SELECT pr.annotation_state, pr.annotator_id FROM tracing.annotator_queue_items_progress pr
                WHERE pr.project_id = qi.project_id AND pr.queue_item_id = qi.id AND pr.deleted_at IS NULL
                ORDER BY pr.updated_at DESC, pr.id DESC LIMIT 1) p ON true
            WHERE %s""";

    static SqlStatement queues(String projectId, String name, List<SortKey> sortBy, Page page) {
        SqlParams params = new SqlParams();
        List<String> conditions = new ArrayList<>(List.of("project_id = " + params.bind(projectId, "text"),
                "deleted_at IS NULL"));
        if (name != null) {
            conditions.add("lower(name) LIKE lower(" + params.bind("%" + name + "%", "text") + ")");
        }
        String sql = "SELECT id, project_id, name, description, scorer_refs, created_at, created_by, updated_at, deleted_at"
                + " FROM tracing.annotation_queues WHERE " + String.join(" AND ", conditions)
                + " ORDER BY " + orderBy(sortBy, QUEUE_SORT_FIELDS, "created_at DESC, id ASC");
        return new SqlStatement(sql + page(page, params), params.values());
    }

    static SqlStatement items(String projectId, String queueId, ItemsFilter filter, List<SortKey> sortBy, Page page,
            boolean withPosition) {
        SqlParams params = new SqlParams();
        List<String> conditions = new ArrayList<>(List.of("qi.project_id = " + params.bind(projectId, "text"),
                "qi.queue_id = " + params.bind(queueId, "text"), "qi.deleted_at IS NULL"));
        equal(conditions, params, "qi.id", filter.id());
        equal(conditions, params, "qi.call_id", filter.callId());
        equal(conditions, params, "qi.call_op_name", filter.callOpName());
        equal(conditions, params, "qi.call_trace_id", filter.callTraceId());
        equal(conditions, params, "qi.added_by", filter.addedBy());
        String order = orderBy(sortBy, ITEM_SORT_FIELDS, "created_at ASC, id ASC");
        String position = withPosition ? ",\n    row_number() OVER (ORDER BY " + qualified(order) + ") AS position_in_queue" : "";
        String sql = "SELECT * FROM (" + ITEMS.formatted(position, String.join(" AND ", conditions)) + ") items";
        if (filter.annotationStates() != null && !filter.annotationStates().isEmpty()) {
            sql += " WHERE annotation_state = ANY(" + params.bind(filter.annotationStates().toArray(String[]::new), "text[]")
                    + ")";
        }
        return new SqlStatement(sql + " ORDER BY " + order + page(page, params), params.values());
    }

    private static void equal(List<String> conditions, SqlParams params, String column, String value) {
        if (value != null) {
            conditions.add(column + " = " + params.bind(value, "text"));
        }
    }

    private static String orderBy(List<SortKey> sortBy, Set<String> fields, String otherwise) {
        List<String> terms = new ArrayList<>();
        for (SortKey key : sortBy == null ? List.<SortKey>of() : sortBy) {
            if (fields.contains(key.field())) {
                String text = TEXT_SORT_FIELDS.contains(key.field()) ? " COLLATE \"C\"" : "";
                terms.add(key.field() + text + (key.descending() ? " DESC" : " ASC"));
            }
        }
        if (terms.isEmpty()) {
            return otherwise;
        }
        terms.add("id ASC");
        return String.join(", ", terms);
    }

    /** The same order inside the items' select, where a bare name could also be a progress column. */
    private static String qualified(String order) {
        List<String> terms = new ArrayList<>();
        for (String term : order.split(", ")) {
            terms.add("qi." + term);
        }
        return String.join(", ", terms);
    }

    private static String page(Page page, SqlParams params) {
        String sql = "";
        if (page.limit() != null) {
            sql += " LIMIT " + params.bind(page.limit(), "bigint");
        }
        if (page.offset() != null) {
            sql += " OFFSET " + params.bind(page.offset(), "bigint");
        }
        return sql;
    }

    private AnnotationQueueQueries() {
    }
}
