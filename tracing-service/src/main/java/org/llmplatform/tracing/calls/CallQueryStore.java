package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.llmplatform.tracing.query.Cursors;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.QuerySql;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * Runs calls queries, streamed through a server-side cursor or counted, and builds their SQL (docs/tracing-service.md#calls-query): project, visibility (has a start, not deleted), the filter, the {@code $expr}, then the
 * order with its id tie-break, offset and limit. Everything filters and sorts in PostgreSQL.
 */
@ApplicationScoped
public class CallQueryStore {

    /** Counts of a calls query: matches and, when asked, the summed storage of the matched traces. */
    public record CallStats(long count, long totalStorageSizeBytes) {
    }

    /** A queried call and, when asked for, its feedback rows (a JSON array) and its costs (a JSON object). */
    public record QueriedCall(StoredCall call, String feedbackJson, String costsJson) {
    }

    private static final Set<String> ALWAYS_LOADED = Set.of("id", "project_id", "trace_id", "op_name", "started_at");

    /** Each selected column with what it reads when it is not loaded. */
    private static final Map<String, String> COLUMNS_AND_ABSENT = columnsAndAbsent();

    /**
     * The JSON columns travel as text; an OTel call's span (stored as the JSON text it was written as)
     * reads back under attributes.otel_span.
     */
    private static final Map<String, String> LOADED = Map.of(
            "attributes", """
                    (CASE WHEN c.otel_dump IS NULL THEN c.attributes
                        ELSE coalesce(c.attributes, '{}') || jsonb_build_object('otel_span', c.otel_dump::jsonb) END)::text""",
            "inputs", "c.inputs::text",
            "output", "c.output::text",
            "summary", "c.summary::text");

    /** The bytes of a call's attributes, inputs, output and summary JSON, as written (see migration V10). */
    private static final String STORAGE_SIZE = """
            (coalesce(%1$s.attributes_size_bytes, 0)::bigint + coalesce(%1$s.inputs_size_bytes, 0)
                + coalesce(%1$s.output_size_bytes, 0) + coalesce(%1$s.summary_size_bytes, 0))""";

    private static final String TRACE_TOTAL = """
            CASE WHEN c.parent_id IS NULL THEN (
                SELECT sum(%s)::bigint FROM tracing.calls t
                WHERE t.project_id = c.project_id AND t.trace_id = c.trace_id
                    AND t.started_at IS NOT NULL AND t.deleted_at IS NULL) END""".formatted(STORAGE_SIZE.formatted("t"));

    /**
     * How many calls, in the query's order, a page of a search of a common word reads before it takes every
     * call of the traces its words give (docs/tracing-service.md#searching-inputs-and-outputs).
     */
    static final int SEARCH_WALK = 5000;

    /** How many calls, in the query's order, a page of a search reads before it asks for the traces of its words. */
    static final int SEARCH_GLANCE = 500;

    /** Up to how many calls of the traces of its words a page of a search takes before it walks the calls in order. */
    static final int SEARCH_FEW = 1000;

    private final Pool pool;
    private final SearchTermsBackfill searchTerms;

    public CallQueryStore(Pool pool, SearchTermsBackfill searchTerms) {
        this.pool = pool;
        this.searchTerms = searchTerms;
    }

    /** The matching calls as a cursor yields them, with back-pressure (see {@link Cursors}). */
    public Multi<QueriedCall> stream(CallsQuery query) {
        return Cursors.stream(pool, new Statement(query, searchTerms.complete()).select())
                .map(row -> new QueriedCall(CallStore.toStoredCall(row), row.getString("feedback"),
                        row.getString("costs")));
    }

    /** {@code count} and {@code total_storage_size_bytes} of the matching calls (capped by the limit). */
    public Uni<CallStats> stats(CallsQuery query) {
        CallFilter filter = query.filter() == null ? CallFilter.NONE : query.filter();
        if (countedByRollup(query, filter)) {
            return pool.preparedQuery("SELECT coalesce(sum(calls), 0)::bigint AS count FROM tracing.call_stats_hours"
                            + " WHERE project_id = $1 AND (root OR NOT $2)")
                    .execute(Tuple.of(query.projectId(), Boolean.TRUE.equals(filter.traceRootsOnly())))
                    .map(rows -> new CallStats(rows.iterator().next().getLong("count"), 0));
        }
        SqlStatement statement = new Statement(query, searchTerms.complete()).stats();
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new CallStats(row.getLong("count"), row.getLong("total_storage_size_bytes"));
                });
    }

    /**
     * Whether the count is every visible call of the project, or every visible trace root, uncapped: the calls table's
     * count as the UI first asks it. The hourly rollup of calls/stats counts exactly those calls (a start, not deleted;
     * roots apart) in the writing statement's transaction, so summing its hours (720 rows a month) answers without
     * counting the calls: counting the 800,000 roots of a ten-million-call project took 271 ms.
     */
    private static boolean countedByRollup(CallsQuery query, CallFilter filter) {
        return query.query() == null && !query.totalStorageSize() && query.page().limit() == null && query.page().offset() == null
                && Stream.of(filter.opNames(), filter.inputRefs(), filter.outputRefs(), filter.parentIds(), filter.traceIds(),
                        filter.callIds(), filter.threadIds(), filter.turnIds(), filter.svcUserIds(), filter.svcRunIds())
                .allMatch(values -> values == null || values.isEmpty());
    }

    /** The statements {@link #stream} and {@link #stats} run once every call's search words are filed, for their plans. */
    static List<SqlStatement> statements(CallsQuery query) {
        return List.of(new Statement(query, true).select(), new Statement(query, true).stats());
    }

    /** One query's statements; the select has one row per call with the columns {@code CallStore.toStoredCall} reads. */
    private static final class Statement {

        private final CallsQuery query;
        /** Whether every call's search words are filed ({@link SearchTermsBackfill}), so a search may ask them. */
        private final boolean searchTermsComplete;
        private final CallFields fields;
        private final SqlParams params = new SqlParams();

        Statement(CallsQuery query, boolean searchTermsComplete) {
            this.query = query;
            this.searchTermsComplete = searchTermsComplete;
            this.fields = CallFields.of(query.projectId(), query.expandColumns());
        }

        SqlStatement select() {
            StringBuilder sql = new StringBuilder("SELECT ");
            List<String> selected = new ArrayList<>();
            COLUMNS_AND_ABSENT.forEach((column, absent) -> selected.add(
                    (isLoaded(column) ? LOADED.getOrDefault(column, "c." + column) : absent) + " AS " + column));
            selected.add((query.storageSize() ? STORAGE_SIZE.formatted("c") : "NULL::bigint") + " AS storage_size_bytes");
            selected.add((query.totalStorageSize() ? TRACE_TOTAL : "NULL::bigint") + " AS total_storage_size_bytes");
            selected.add((query.costs()
                    ? "tracing.call_costs(c.started_at, c.summary, " + fields.priceBook(params) + ")::text"
                    : "NULL::text") + " AS costs");
            selected.add((query.feedback() ? "tracing.call_feedback(c.project_id, c.id)::text" : "NULL::text") + " AS feedback");
            sql.append(String.join(", ", selected)).append(" FROM tracing.calls c WHERE ");
            String order = String.join(", ", orderBy());
            boolean pagedSearch = query.query() != null && query.page() != null && query.page().limit() != null
                    && CallFields.searchesDocuments(query.query());
            SearchedRows searched = pagedSearch ? searchedRows(order) : null;
            sql.append(searched != null ? searched.condition() : where());
            sql.append(" ORDER BY ").append(order);
            appendPage(sql);
            return new SqlStatement(searched != null ? searched.with() + sql : sql.toString(), params.values());
        }

        /** A search page's walks ({@code WITH …}, before the statement) and the condition that reads them. */
        private record SearchedRows(String with, String condition) {
        }

        /**
         * The rows of a page of a search, the cheapest way first (each step an init plan PostgreSQL runs only when
         * the CASE reaches it; a walk is a materialized CTE, read once). Reading a call's JSON text costs about
         * 70 µs at a million calls, the candidates of a rare word from the traces of its words a few milliseconds, those of a
         * common word more than walking to its first page:
         * <ol>
         * <li>the first {@link #SEARCH_GLANCE} calls the other conditions keep, in the query's order: a common word
         * fills the page there;</li>
         * <li>up to {@link #SEARCH_FEW} calls of those traces: fewer, and they are every call the search keeps
         * (a rare word);</li>
         * <li>the first {@link #SEARCH_WALK} calls in order, for a word too common for its traces;</li>
         * <li>else every call of those traces.</li>
         * </ol>
         * Walking 5,000 calls first, a rare word cost 344 ms of JSON text at a million calls, a trigram index 6 ms.
         */
        private SearchedRows searchedRows(String order) {
            String structural = structuralWhere();
            String expr = QuerySql.condition(fields, params, query.query());
            Page page = query.page();
            long wanted = page.limit() + (page.offset() == null ? 0 : page.offset());
            String wantedSql = params.bind(wanted, "bigint");
            String few = params.bind((long) SEARCH_FEW, "bigint");
            String traces = candidateTraceIds();
            // From each candidate trace to its calls (calls_by_trace), in a loop the planner may not turn around: it
            // misjudges how few calls the search keeps, and at ten million calls it walked the project's roots instead,
            // reading each one's JSON, to join them to the traces' words (1.2 s for a word in 1 trace in 50). A trace
            // with words from several writes repeats its calls: the count of step 2 is then an upper bound, and the
            // array selects each call once. Not made distinct, so that the count stops at its limit.
            String matching = traces == null
                    ? "SELECT c.ctid FROM tracing.calls c WHERE " + structural + " AND " + expr
                    : "SELECT c.ctid FROM (" + traces + ") t CROSS JOIN LATERAL (SELECT c.ctid FROM tracing.calls c"
                            + " WHERE c.trace_id = t.trace_id AND " + structural + " AND " + expr + " OFFSET 0) c";
            String with = "WITH glance AS MATERIALIZED (" + walk(structural, expr, order, SEARCH_GLANCE, wantedSql)
                    + "), walked AS MATERIALIZED (" + walk(structural, expr, order, SEARCH_WALK, wantedSql) + ") ";
            return new SearchedRows(with, "c.ctid = ANY(CASE WHEN (SELECT cardinality(ids) FROM glance) = " + wantedSql
                    + " THEN (SELECT ids FROM glance)"
                    + " WHEN (SELECT count(*) FROM (" + matching + " LIMIT " + few + ") capped) < " + few
                    + " THEN ARRAY(" + matching + ")"
                    + " WHEN (SELECT cardinality(ids) FROM walked) = " + wantedSql + " THEN (SELECT ids FROM walked)"
                    + " ELSE ARRAY(" + matching + ") END)");
        }

        /** The first {@code wanted} matches among the first {@code calls} calls the other conditions keep. */
        private String walk(String structural, String expr, String order, int calls, String wantedSql) {
            return "SELECT ARRAY(SELECT c.row_id FROM (SELECT c.ctid AS row_id, c.* FROM tracing.calls c WHERE "
                    + structural + " ORDER BY " + order + " LIMIT " + params.bind((long) calls, "bigint") + ") c WHERE "
                    + expr + " ORDER BY " + order + " LIMIT " + wantedSql + ") AS ids";
        }

        SqlStatement stats() {
            StringBuilder inner = new StringBuilder("SELECT ")
                    .append(query.totalStorageSize() ? TRACE_TOTAL : "NULL::bigint").append(" AS total")
                    .append(" FROM tracing.calls c WHERE ").append(where());
            appendPage(inner);
            String sql = "SELECT count(*) AS count, coalesce(sum(matched.total), 0)::bigint AS total_storage_size_bytes FROM ("
                    + inner + ") matched";
            return new SqlStatement(sql, params.values());
        }

        private String where() {
            String structural = structuralWhere();
            return query.query() == null ? structural
                    : structural + candidateTraces() + " AND " + QuerySql.condition(fields, params, query.query());
        }

        /**
         * {@code AND} the traces whose words hold the search's (V28's {@code call_search_terms}, by its trigram index),
         * as a semi-join that PostgreSQL reads before the calls where they are few; empty where the query has no such
         * words ({@link SearchTerms}) or the words of earlier calls are still being filed.
         */
        private String candidateTraces() {
            String traces = candidateTraceIds();
            return traces == null ? "" : " AND c.trace_id IN (" + traces + ")";
        }

        /** The ids of the traces whose words hold the search's (a statement), or null as {@link #candidateTraces}. */
        private String candidateTraceIds() {
            List<Set<String>> required = searchTermsComplete ? SearchTerms.required(query.query()) : null;
            if (required == null) {
                return null;
            }
            List<String> alternatives = new ArrayList<>();
            for (Set<String> words : required) {
                List<String> patterns = words.stream().map(word -> params.bind("%" + word + "%", "text")).toList();
                // the function prices reading a row's words, so that PostgreSQL reads them through the index (V28)
                alternatives.add("(" + patterns.stream().map(pattern -> "t.terms ILIKE " + pattern)
                        .collect(Collectors.joining(" AND ")) + " AND tracing.search_terms_hold(t.terms, " + patterns.get(0) + "))");
            }
            return "SELECT t.trace_id FROM tracing.call_search_terms t WHERE t.project_id = "
                    + params.bind(query.projectId(), "text") + " AND (" + String.join(" OR ", alternatives) + ")";
        }

        /** The project, visibility and filter conditions: everything but the {@code $expr}. */
        private String structuralWhere() {
            List<String> conditions = new ArrayList<>();
            conditions.add("c.project_id = " + params.bind(query.projectId(), "text"));
            conditions.add("c.started_at IS NOT NULL");
            conditions.add("c.deleted_at IS NULL");
            CallFilter filter = query.filter() == null ? CallFilter.NONE : query.filter();
            opNames(filter.opNames(), conditions);
            overlaps("input_refs", filter.inputRefs(), conditions);
            overlaps("output_refs", filter.outputRefs(), conditions);
            oneOfIds("c.parent_id", filter.parentIds(), conditions);
            oneOfIds("c.trace_id", filter.traceIds(), conditions);
            oneOfIds("c.id", filter.callIds(), conditions);
            oneOfIds("c.thread_id", filter.threadIds(), conditions);
            oneOfIds("c.turn_id", filter.turnIds(), conditions);
            anyOf("c.svc_user_id", filter.svcUserIds(), conditions);
            anyOf("c.svc_run_id", filter.svcRunIds(), conditions);
            if (Boolean.TRUE.equals(filter.traceRootsOnly())) {
                conditions.add("c.parent_id IS NULL");
            }
            return String.join(" AND ", conditions);
        }

        /** Exact names and {@code name:*} version wildcards (a prefix match), OR-ed. */
        private void opNames(List<String> opNames, List<String> conditions) {
            if (opNames == null || opNames.isEmpty()) {
                return;
            }
            List<String> exact = new ArrayList<>();
            List<String> alternatives = new ArrayList<>();
            for (String opName : opNames) {
                if (opName.endsWith(":*")) {
                    String prefix = opName.substring(0, opName.length() - 1);
                    alternatives.add("c.op_name LIKE " + params.bind(escapeLike(prefix) + "%", "text"));
                } else {
                    exact.add(opName);
                }
            }
            if (!exact.isEmpty()) {
                alternatives.add("c.op_name = ANY(" + params.bind(exact.toArray(String[]::new), "text[]") + ")");
            }
            conditions.add("(" + String.join(" OR ", alternatives) + ")");
        }

        /** The refs column shares a ref with the list; the cardinality test lets the partial GIN index serve it. */
        private void overlaps(String column, List<String> values, List<String> conditions) {
            if (values != null && !values.isEmpty()) {
                conditions.add("cardinality(c." + column + ") > 0 AND c." + column + " && "
                        + params.bind(values.toArray(String[]::new), "text[]"));
            }
        }

        /**
         * A list of ids as a semi-join, so the calls come from the id's index whatever the order: as
         * {@code = ANY(...)} PostgreSQL may instead walk the project in started_at order and test each call,
         * which read a million calls when the ids were old (docs/tracing-service.md#calls-query).
         */
        private void oneOfIds(String column, List<String> values, List<String> conditions) {
            if (values != null && !values.isEmpty()) {
                conditions.add(column + " IN (SELECT unnest(" + params.bind(values.toArray(String[]::new), "text[]") + "))");
            }
        }

        private void anyOf(String column, List<String> values, List<String> conditions) {
            if (values != null && !values.isEmpty()) {
                conditions.add(column + " = ANY(" + params.bind(values.toArray(String[]::new), "text[]") + ")");
            }
        }

        /**
         * The default is started_at, id ascending; an empty list orders by id only. Without an id key,
         * id breaks ties in the direction of a last started_at key, else ascending (docs/tracing-service.md#calls-query).
         */
        private List<String> orderBy() {
            List<SortKey> sortBy = query.sortBy();
            if (sortBy == null) {
                return List.of("c.started_at", "c.id");
            }
            List<String> keys = new ArrayList<>();
            for (SortKey key : sortBy) {
                keys.addAll(QuerySql.orderTerms(fields, params, key, CallFields.neverNull(key.field())));
            }
            if (sortBy.stream().noneMatch(key -> key.field().equals("id"))) {
                SortKey last = sortBy.isEmpty() ? null : sortBy.get(sortBy.size() - 1);
                boolean descending = last != null && last.field().equals("started_at") && last.descending();
                keys.add(descending ? "c.id DESC" : "c.id");
            }
            return keys;
        }

        private void appendPage(StringBuilder sql) {
            sql.append(QuerySql.page(query.page(), params));
        }

        private boolean isLoaded(String column) {
            return query.columns() == null || ALWAYS_LOADED.contains(column) || query.columns().contains(column);
        }
    }

    private static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static Map<String, String> columnsAndAbsent() {
        Map<String, String> columns = new LinkedHashMap<>();
        for (String text : List.of("project_id", "id", "op_name", "display_name", "trace_id", "parent_id", "thread_id",
                "turn_id", "exception", "svc_user_id", "svc_run_id")) {
            columns.put(text, "NULL::text");
        }
        for (String time : List.of("started_at", "ended_at", "deleted_at", "expire_at")) {
            columns.put(time, "NULL::timestamptz");
        }
        for (String number : List.of("svc_run_step", "svc_run_step_end")) {
            columns.put(number, "NULL::bigint");
        }
        columns.put("attributes", "'{}'::text");
        columns.put("inputs", "'{}'::text");
        columns.put("output", "NULL::text");
        columns.put("summary", "NULL::text");
        return columns;
    }
}
