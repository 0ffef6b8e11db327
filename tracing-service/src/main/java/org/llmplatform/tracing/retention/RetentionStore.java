package org.llmplatform.tracing.retention;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;

/** The SQL of per-project retention: the settings in {@code tracing.project_retention} and the batched delete. */
@ApplicationScoped
public class RetentionStore {

    private static final String READ = "SELECT retention_days FROM tracing.project_retention WHERE project_id = $1";
    private static final String SET = """
            INSERT INTO tracing.project_retention (project_id, retention_days, updated_by) VALUES ($1, $2, $3)
            ON CONFLICT (project_id) DO UPDATE SET retention_days = EXCLUDED.retention_days, updated_at = now(),
                updated_by = EXCLUDED.updated_by""";
    private static final String CLEAR = "DELETE FROM tracing.project_retention WHERE project_id = $1";

    // One replica deletes at a time: the others find the lock taken and leave the round to it.
    private static final String TRY_LOCK = "SELECT pg_try_advisory_xact_lock(hashtextextended('tracing.call_retention', 0))";

    /**
     * At most $2 expired calls over every project with a retention, oldest first per project (the visible-calls
     * index, (project_id, started_at, id), finds them without reading a newer call), rows that a writer holds
     * skipped; then the feedback on them. The rollup of calls/stats follows by its delete trigger. Beside them, at
     * most $2 rows of the search's words (V28) whose every call is older than the retention. Answers the larger
     * count: a full batch of either means more are left.
     */
    private static final String DELETE_BATCH = """
            WITH expired AS (
                SELECT c.project_id, c.id
                FROM tracing.project_retention r
                CROSS JOIN LATERAL (
                    SELECT c.project_id, c.id FROM tracing.calls c
                    WHERE c.project_id = r.project_id AND c.started_at IS NOT NULL AND c.deleted_at IS NULL
                        AND c.started_at < $1::timestamptz - make_interval(days => r.retention_days)
                    ORDER BY c.started_at
                    LIMIT $2
                    FOR UPDATE OF c SKIP LOCKED) c
                LIMIT $2),
            gone AS (
                DELETE FROM tracing.calls c USING expired e WHERE c.project_id = e.project_id AND c.id = e.id
                RETURNING c.project_id, c.id),
            gone_feedback AS (
                DELETE FROM tracing.feedback f USING gone g
                WHERE f.project_id = g.project_id AND f.weave_ref = 'weave:///' || g.project_id || '/call/' || g.id),
            expired_terms AS (
                SELECT t.row_id
                FROM tracing.project_retention r
                CROSS JOIN LATERAL (
                    SELECT t.ctid AS row_id FROM tracing.call_search_terms t
                    WHERE t.project_id = r.project_id
                        AND t.started_at < $1::timestamptz - make_interval(days => r.retention_days)
                    LIMIT $2) t
                LIMIT $2),
            gone_terms AS (
                DELETE FROM tracing.call_search_terms t USING expired_terms e WHERE t.ctid = e.row_id RETURNING 1)
            SELECT greatest((SELECT count(*) FROM gone), (SELECT count(*) FROM gone_terms)) AS deleted""";

    private final Pool pool;

    public RetentionStore(Pool pool) {
        this.pool = pool;
    }

    /** The project's retention in days, or null where it keeps its calls for ever. */
    public Uni<Integer> read(String projectId) {
        return pool.preparedQuery(READ).execute(Tuple.of(projectId))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getInteger("retention_days"));
    }

    /** Sets the project's retention; null keeps its calls for ever. */
    public Uni<Void> write(String projectId, Integer retentionDays, String updatedBy) {
        Uni<RowSet<Row>> written = retentionDays == null
                ? pool.preparedQuery(CLEAR).execute(Tuple.of(projectId))
                : pool.preparedQuery(SET).execute(Tuple.of(projectId, retentionDays, updatedBy));
        return written.replaceWithVoid();
    }

    /**
     * Deletes one batch of the calls that started before {@code now} less their project's retention, and of their
     * search words, in one transaction that holds the retention's advisory lock; answers how many (of whichever had
     * more), or -1 where another replica holds it.
     */
    public Uni<Integer> deleteExpiredBatch(OffsetDateTime now, int batchSize) {
        return pool.withTransaction(connection -> connection.query(TRY_LOCK).execute().flatMap(locked -> {
            if (!locked.iterator().next().getBoolean(0)) {
                return Uni.createFrom().item(-1);
            }
            return connection.preparedQuery(DELETE_BATCH).execute(Tuple.of(now, batchSize))
                    .map(rows -> rows.iterator().next().getLong("deleted").intValue());
        }));
    }
}
