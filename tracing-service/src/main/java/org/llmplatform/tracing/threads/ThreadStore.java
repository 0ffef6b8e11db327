package org.llmplatform.tracing.threads;

import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.query.Cursors;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * Threads (docs/tracing-service.md#threads): the turn calls (visible, {@code id = turn_id}, with a thread) grouped by
 * thread and aggregated in PostgreSQL, exact quantiles by linear interpolation; a page without a time range is cut from
 * the thread summaries first (docs/tracing-service.md#thread-summaries).
 */
@ApplicationScoped
public class ThreadStore {

    /** One thread's aggregates as the API returns them; datetimes already formatted. */
    public record ThreadRow(String threadId, long turnCount, String startTime, String lastUpdated, String firstTurnId,
            String lastTurnId, Double p50TurnDurationMs, Double p99TurnDurationMs) {
    }

    /** The filters of a threads query; null members do not filter. */
    public record ThreadsQuery(String projectId, OffsetDateTime after, OffsetDateTime before, List<String> threadIds,
            List<SortKey> sortBy, Long limit, Long offset) {
    }

    private static final Map<String, String> SORTABLE = Map.of("thread_id", "thread_id", "turn_count", "turn_count",
            "start_time", "start_time", "last_updated", "last_updated", "p50_turn_duration_ms", "p50",
            "p99_turn_duration_ms", "p99");

    /** A turn as the threads list counts it; the partial index calls_turns_by_thread (V26) holds exactly these. */
    private static final String TURN = "c.id = c.turn_id AND c.thread_id <> '' AND c.started_at IS NOT NULL"
            + " AND c.deleted_at IS NULL";

    private static final String TURN_AGGREGATES = """
            (array_agg(c.id ORDER BY c.started_at, c.id))[1] AS first_turn_id,
            (array_agg(c.id ORDER BY c.ended_at DESC NULLS LAST, c.id))[1] AS last_turn_id,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.ended_at - c.started_at) * 1000) AS p50,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM c.ended_at - c.started_at) * 1000) AS p99""";

    private final Pool pool;

    public ThreadStore(Pool pool) {
        this.pool = pool;
    }

    public Multi<ThreadRow> stream(ThreadsQuery query) {
        return Cursors.stream(pool, select(query)).map(row -> new ThreadRow(row.getString("thread_id"),
                row.getLong("turn_count"), row.getString("start_time_text"), row.getString("last_updated_text"),
                row.getString("first_turn_id"), row.getString("last_turn_id"), row.getDouble("p50"),
                row.getDouble("p99")));
    }

    static SqlStatement select(ThreadsQuery query) {
        return fromSummaries(query) ? selectFromSummaries(query) : selectFromTurns(query);
    }

    /**
     * The summaries (migration V26) hold each thread's count, first start and last end over all its turns: they answer
     * a query without a time range that sorts by those; the quantiles and a time range need the turns themselves.
     */
    private static boolean fromSummaries(ThreadsQuery query) {
        return query.after() == null && query.before() == null && (query.sortBy() == null
                || query.sortBy().stream().noneMatch(key -> key.field().endsWith("_turn_duration_ms")));
    }

    /** The page from the summaries, then each of its threads' turns by the index of turns. */
    private static SqlStatement selectFromSummaries(ThreadsQuery query) {
        SqlParams params = new SqlParams();
        String project = params.bind(query.projectId(), "text");
        List<String> conditions = new ArrayList<>(List.of("s.project_id = " + project, "s.last_updated IS NOT NULL"));
        if (query.threadIds() != null && !query.threadIds().isEmpty()) {
            conditions.add("s.thread_id = ANY(" + params.bind(query.threadIds().toArray(String[]::new), "text[]") + ")");
        }
        String order = String.join(", ", orderBy(query.sortBy()));
        String sql = """
                SELECT page.thread_id, page.turn_count, page.start_time, page.last_updated, turns.first_turn_id,
                    turns.last_turn_id, turns.p50, turns.p99, tracing.iso_utc(page.start_time) AS start_time_text,
                    tracing.iso_utc(page.last_updated) AS last_updated_text
                FROM (SELECT s.thread_id, s.turn_count, s.start_time, s.last_updated
                    FROM tracing.thread_summaries s
                    WHERE %s
                    ORDER BY %s%s) page
                CROSS JOIN LATERAL (
                    SELECT %s
                    FROM tracing.calls c
                    WHERE c.project_id = %s AND c.thread_id = page.thread_id AND %s) turns
                ORDER BY %s""".formatted(String.join(" AND ", conditions), order, page(query, params),
                TURN_AGGREGATES, project, TURN, order);
        return new SqlStatement(sql, params.values());
    }

    /** Every turn in the time range grouped by thread. */
    private static SqlStatement selectFromTurns(ThreadsQuery query) {
        SqlParams params = new SqlParams();
        List<String> conditions = new ArrayList<>(List.of("c.project_id = " + params.bind(query.projectId(), "text"),
                TURN));
        if (query.threadIds() != null && !query.threadIds().isEmpty()) {
            conditions.add("c.thread_id = ANY(" + params.bind(query.threadIds().toArray(String[]::new), "text[]") + ")");
        }
        if (query.after() != null) {
            conditions.add("c.started_at > " + params.bind(query.after(), "timestamptz"));
        }
        if (query.before() != null) {
            conditions.add("c.started_at < " + params.bind(query.before(), "timestamptz"));
        }
        String sql = """
                SELECT thread_id, turn_count, start_time, last_updated, first_turn_id, last_turn_id, p50, p99,
                    tracing.iso_utc(start_time) AS start_time_text, tracing.iso_utc(last_updated) AS last_updated_text
                FROM (
                    SELECT c.thread_id, count(*) AS turn_count, min(c.started_at) AS start_time,
                        max(c.ended_at) AS last_updated, %s
                    FROM tracing.calls c
                    WHERE %s
                    GROUP BY c.thread_id) threads
                WHERE start_time IS NOT NULL AND last_updated IS NOT NULL
                ORDER BY %s%s""".formatted(TURN_AGGREGATES, String.join(" AND ", conditions),
                String.join(", ", orderBy(query.sortBy())), page(query, params));
        return new SqlStatement(sql, params.values());
    }

    private static String page(ThreadsQuery query, SqlParams params) {
        String page = "";
        if (query.limit() != null) {
            page += " LIMIT " + params.bind(query.limit(), "bigint");
        }
        if (query.offset() != null) {
            page += " OFFSET " + params.bind(query.offset(), "bigint");
        }
        return page;
    }

    private static List<String> orderBy(List<SortKey> sortBy) {
        if (sortBy == null || sortBy.isEmpty()) {
            return List.of("last_updated DESC", "thread_id");
        }
        List<String> keys = new ArrayList<>();
        for (SortKey key : sortBy) {
            String column = SORTABLE.get(key.field());
            if (column == null) {
                throw InvalidQueryException.unsupported("Unsupported sort field: " + key.field());
            }
            keys.add(column + (column.equals("thread_id") ? " COLLATE \"C\"" : "") + (key.descending() ? " DESC" : " ASC")
                    + " NULLS LAST");
        }
        keys.add("thread_id");
        return keys;
    }
}
