package org.llmplatform.tracing.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import org.llmplatform.support.error.ApiException;

/**
 * The SQL over {@code tracing.calls}. Every part is an UPSERT that only fills columns still NULL
 * (first non-null value wins), except display_name (last write wins) and the refs (accumulated),
 * so parts may arrive in any order and any number of times.
 */
@ApplicationScoped
public class CallStore {

    /** Postgres refuses NUL in text (22021) and in jsonb strings (22P05); JSON itself allows it. */
    private static final Set<String> NUL_CHARACTER_STATES = Set.of("22021", "22P05");

    private static final String UPSERT_START = """
            INSERT INTO tracing.calls AS c (project_id, id, trace_id, parent_id, thread_id, turn_id, op_name,
                display_name, display_name_written_at, started_at, attributes, inputs, input_refs,
                svc_user_id, svc_run_id, svc_run_step, otel_dump)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb, $12::text::jsonb, $13::text[],
                $14, $15, $16, $17::text::jsonb)
            ON CONFLICT (project_id, id) DO UPDATE SET
                trace_id = coalesce(c.trace_id, EXCLUDED.trace_id),
                parent_id = coalesce(c.parent_id, EXCLUDED.parent_id),
                thread_id = coalesce(c.thread_id, EXCLUDED.thread_id),
                turn_id = coalesce(c.turn_id, EXCLUDED.turn_id),
                op_name = coalesce(c.op_name, EXCLUDED.op_name),
                display_name = CASE WHEN %1$s THEN EXCLUDED.display_name ELSE c.display_name END,
                display_name_written_at = CASE WHEN %1$s
                    THEN EXCLUDED.display_name_written_at ELSE c.display_name_written_at END,
                started_at = coalesce(c.started_at, EXCLUDED.started_at),
                attributes = coalesce(c.attributes, EXCLUDED.attributes),
                inputs = coalesce(c.inputs, EXCLUDED.inputs),
                input_refs = %2$s,
                svc_user_id = coalesce(c.svc_user_id, EXCLUDED.svc_user_id),
                svc_run_id = coalesce(c.svc_run_id, EXCLUDED.svc_run_id),
                svc_run_step = coalesce(c.svc_run_step, EXCLUDED.svc_run_step),
                otel_dump = coalesce(c.otel_dump, EXCLUDED.otel_dump)"""
            .formatted(
                    "EXCLUDED.display_name IS NOT NULL AND (c.display_name_written_at IS NULL"
                            + " OR EXCLUDED.display_name_written_at >= c.display_name_written_at)",
                    appendNewRefs("input_refs"));

    private static final String UPSERT_END = """
            INSERT INTO tracing.calls AS c (project_id, id, ended_at, exception, output, output_refs, summary,
                svc_run_step_end)
            VALUES ($1, $2, $3, $4, $5::text::jsonb, $6::text[], $7::text::jsonb, $8)
            ON CONFLICT (project_id, id) DO UPDATE SET
                ended_at = coalesce(c.ended_at, EXCLUDED.ended_at),
                exception = coalesce(c.exception, EXCLUDED.exception),
                output = coalesce(c.output, EXCLUDED.output),
                output_refs = %s,
                summary = coalesce(c.summary, EXCLUDED.summary),
                svc_run_step_end = coalesce(c.svc_run_step_end, EXCLUDED.svc_run_step_end)"""
            .formatted(appendNewRefs("output_refs"));

    /** The visible-call columns of {@link StoredCall}; $1 asks for the storage size, $2 for the trace total. */
    private static final String VISIBLE_CALL_COLUMNS = """
            c.project_id, c.id, c.op_name, c.display_name, c.trace_id, c.parent_id, c.thread_id, c.turn_id,
            c.started_at,
            (CASE WHEN c.otel_dump IS NULL THEN c.attributes
                ELSE coalesce(c.attributes, '{}') || jsonb_build_object('otel_span', c.otel_dump) END)::text
                AS attributes,
            c.inputs::text AS inputs, c.ended_at, c.exception, c.output::text AS output, c.summary::text AS summary,
            c.svc_user_id, c.svc_run_id, c.svc_run_step, c.svc_run_step_end, c.deleted_at, c.expire_at,
            CASE WHEN $1 THEN c.storage_size_bytes END AS storage_size_bytes,
            CASE WHEN $2 AND c.parent_id IS NULL THEN (
                SELECT sum(t.storage_size_bytes)::bigint FROM tracing.calls t
                WHERE t.project_id = c.project_id AND t.trace_id = c.trace_id
                    AND t.started_at IS NOT NULL AND t.deleted_at IS NULL) END AS total_storage_size_bytes""";

    private static final String READ_VISIBLE = "SELECT " + VISIBLE_CALL_COLUMNS + """

            FROM tracing.calls c
            WHERE c.project_id = $3 AND c.id = $4 AND c.started_at IS NOT NULL AND c.deleted_at IS NULL""";

    private final Pool pool;

    public CallStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> start(CallStartRow row) {
        return start(pool, row);
    }

    public Uni<Void> end(CallEndRow row) {
        return end(pool, row);
    }

    /** Writes both parts of a call at once, so that it never shows as running. */
    public Uni<Void> complete(CallStartRow start, CallEndRow end) {
        return pool.withTransaction(tx -> start(tx, start).chain(() -> end(tx, end)));
    }

    public Uni<Optional<StoredCall>> findVisible(String projectId, String id, boolean withStorageSize,
            boolean withTotalStorageSize) {
        return pool.preparedQuery(READ_VISIBLE)
                .execute(Tuple.of(withStorageSize, withTotalStorageSize, projectId, id))
                .map(CallStore::firstCall);
    }

    private static Uni<Void> start(SqlClient client, CallStartRow row) {
        Tuple values = Tuple.from(Arrays.asList(row.projectId(), row.id(), row.traceId(), row.parentId(),
                row.threadId(), row.turnId(), row.opName(), row.displayName(), row.displayNameWrittenAt(),
                row.startedAt(), row.attributesJson(), row.inputsJson(), row.inputRefs().toArray(String[]::new),
                row.svcUserId(), row.svcRunId(), row.svcRunStep(), row.otelDumpJson()));
        return write(client, UPSERT_START, values);
    }

    private static Uni<Void> end(SqlClient client, CallEndRow row) {
        Tuple values = Tuple.from(Arrays.asList(row.projectId(), row.id(), row.endedAt(), row.exception(),
                row.outputJson(), row.outputRefs().toArray(String[]::new), row.summaryJson(), row.svcRunStepEnd()));
        return write(client, UPSERT_END, values);
    }

    private static Uni<Void> write(SqlClient client, String sql, Tuple values) {
        return client.preparedQuery(sql).execute(values)
                .onFailure(CallStore::isNulCharacter).transform(failure -> ApiException.badRequest(
                        "Strings may not contain the NUL character (\\u0000): " + failure.getMessage()))
                .replaceWithVoid();
    }

    private static boolean isNulCharacter(Throwable failure) {
        return failure instanceof PgException pg && NUL_CHARACTER_STATES.contains(pg.getSqlState());
    }

    /** Keeps the stored refs and adds the new ones not seen yet (starts and ends may be repeated). */
    private static String appendNewRefs(String column) {
        return "c.%1$s || ARRAY(SELECT r FROM unnest(EXCLUDED.%1$s) AS r WHERE r <> ALL (c.%1$s))".formatted(column);
    }

    private static Optional<StoredCall> firstCall(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Row row = rows.iterator().next();
        return Optional.of(new StoredCall(
                row.getString("project_id"), row.getString("id"), row.getString("op_name"),
                row.getString("display_name"), row.getString("trace_id"), row.getString("parent_id"),
                row.getString("thread_id"), row.getString("turn_id"), row.getOffsetDateTime("started_at"),
                row.getString("attributes"), row.getString("inputs"), row.getOffsetDateTime("ended_at"),
                row.getString("exception"), row.getString("output"), row.getString("summary"),
                row.getString("svc_user_id"), row.getString("svc_run_id"), row.getLong("svc_run_step"),
                row.getLong("svc_run_step_end"), row.getOffsetDateTime("deleted_at"),
                row.getLong("storage_size_bytes"), row.getLong("total_storage_size_bytes"),
                row.getOffsetDateTime("expire_at")));
    }
}
