package org.llmplatform.tracing.calls;

import static org.llmplatform.tracing.calls.UnnestUpsert.Kind.BIGINT;
import static org.llmplatform.tracing.calls.UnnestUpsert.Kind.JSONB;
import static org.llmplatform.tracing.calls.UnnestUpsert.Kind.REFS;
import static org.llmplatform.tracing.calls.UnnestUpsert.Kind.TEXT;
import static org.llmplatform.tracing.calls.UnnestUpsert.Kind.TIMESTAMPTZ;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.tracing.common.RefusedWriteException;

/**
 * The SQL over {@code tracing.calls}. Every part is an UPSERT that only fills columns still NULL
 * (first non-null value wins), except display_name (last write wins) and the refs (accumulated),
 * so parts may arrive in any order and any number of times.
 */
@ApplicationScoped
public class CallStore {

    /** Postgres refuses NUL in text (22021) and in jsonb strings (22P05); JSON itself allows it. */
    private static final Set<String> NUL_CHARACTER_STATES = Set.of("22021", "22P05");

    /** What a start part sets on an existing row: first non-null value wins, refs accumulate. */
    private static final String START_MERGE = """
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
                attributes_size_bytes = %3$s,
                inputs = coalesce(c.inputs, EXCLUDED.inputs),
                inputs_size_bytes = %4$s,
                input_refs = %2$s,
                svc_user_id = coalesce(c.svc_user_id, EXCLUDED.svc_user_id),
                svc_run_id = coalesce(c.svc_run_id, EXCLUDED.svc_run_id),
                svc_run_step = coalesce(c.svc_run_step, EXCLUDED.svc_run_step),
                otel_dump = coalesce(c.otel_dump, EXCLUDED.otel_dump)"""
            .formatted(
                    "EXCLUDED.display_name IS NOT NULL AND (c.display_name_written_at IS NULL"
                            + " OR EXCLUDED.display_name_written_at >= c.display_name_written_at)",
                    appendNewRefs("input_refs"), sizeOfFirst("attributes"), sizeOfFirst("inputs"));

    /** What an end part sets on an existing row: first non-null value wins, refs accumulate. */
    private static final String END_SETS = """
                ended_at = coalesce(c.ended_at, EXCLUDED.ended_at),
                exception = coalesce(c.exception, EXCLUDED.exception),
                output = coalesce(c.output, EXCLUDED.output),
                output_size_bytes = %2$s,
                output_refs = %1$s,
                summary = coalesce(c.summary, EXCLUDED.summary),
                summary_size_bytes = %3$s,
                svc_run_step_end = coalesce(c.svc_run_step_end, EXCLUDED.svc_run_step_end)"""
            .formatted(appendNewRefs("output_refs"), sizeOfFirst("output"), sizeOfFirst("summary"));

    private static final String END_MERGE = "ON CONFLICT (project_id, id) DO UPDATE SET\n" + END_SETS;

    /** A start and an end of one call in one statement: the same merge as the two parts one after the other. */
    private static final String COMPLETE_MERGE = START_MERGE + ",\n" + END_SETS;

    private static final List<UnnestUpsert.Column> START_COLUMNS = columns(
            "project_id", TEXT, "id", TEXT, "trace_id", TEXT, "parent_id", TEXT, "thread_id", TEXT, "turn_id", TEXT,
            "op_name", TEXT, "display_name", TEXT, "display_name_written_at", TIMESTAMPTZ, "started_at", TIMESTAMPTZ,
            "attributes", JSONB, "inputs", JSONB, "input_refs", REFS, "svc_user_id", TEXT, "svc_run_id", TEXT,
            "svc_run_step", BIGINT, "otel_dump", TEXT);

    private static final List<UnnestUpsert.Column> END_COLUMNS = columns(
            "project_id", TEXT, "id", TEXT, "ended_at", TIMESTAMPTZ, "exception", TEXT, "output", JSONB,
            "output_refs", REFS, "summary", JSONB, "svc_run_step_end", BIGINT);

    /** The batched forms of the three upserts: the same columns in the same order as their tuples. */
    private static final UnnestUpsert BATCH_START = new UnnestUpsert(START_COLUMNS, START_MERGE);
    private static final UnnestUpsert BATCH_END = new UnnestUpsert(END_COLUMNS, END_MERGE);
    private static final UnnestUpsert BATCH_COMPLETE = new UnnestUpsert(
            concat(START_COLUMNS, END_COLUMNS.subList(2, END_COLUMNS.size())), COMPLETE_MERGE);

    private static final String UPSERT_DISPLAY_NAME = """
            INSERT INTO tracing.calls AS c (project_id, id, display_name, display_name_written_at)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT (project_id, id) DO UPDATE SET
                display_name = CASE WHEN %1$s THEN EXCLUDED.display_name ELSE c.display_name END,
                display_name_written_at = CASE WHEN %1$s
                    THEN EXCLUDED.display_name_written_at ELSE c.display_name_written_at END"""
            .formatted("c.display_name_written_at IS NULL"
                    + " OR EXCLUDED.display_name_written_at >= c.display_name_written_at");

    /**
     * Marks the requested ids and every descendant of them deleted (a delete part: deleted_at, first
     * one wins). The requested ids are marked even when no call has them yet, as the reference does;
     * the UNION of the recursion stops at ids already reached, so a malformed cycle ends.
     */
    private static final String DELETE_WITH_DESCENDANTS = """
            WITH RECURSIVE tree(id) AS (
                SELECT c.id FROM tracing.calls c WHERE c.project_id = $1 AND c.id = ANY($2::text[])
                UNION
                SELECT child.id FROM tracing.calls child JOIN tree ON child.project_id = $1 AND child.parent_id = tree.id
            ),
            doomed(id) AS (SELECT unnest($2::text[]) UNION SELECT id FROM tree),
            marked AS (
                INSERT INTO tracing.calls AS c (project_id, id, deleted_at)
                SELECT $1, id, now() FROM doomed
                ON CONFLICT (project_id, id) DO UPDATE SET deleted_at = coalesce(c.deleted_at, EXCLUDED.deleted_at)
                RETURNING 1)
            SELECT count(*) AS num_deleted FROM marked""";

    /**
     * Marks a call of the given op as the one that records an inference request (attribute
     * {@code inference_request_id}), unless another request has it already; true when it is (now) this request's.
     */
    private static final String CLAIM_FOR_REQUEST = """
            WITH claimed AS (
                SELECT coalesce(c.attributes, '{}'::jsonb) || jsonb_build_object('inference_request_id', $3::text) AS attributes
                FROM tracing.calls c
                WHERE c.project_id = $1 AND c.id = $2 AND c.op_name = $4
                  AND (c.attributes ->> 'inference_request_id' IS NULL OR c.attributes ->> 'inference_request_id' = $3))
            UPDATE tracing.calls c
            SET attributes = claimed.attributes, attributes_size_bytes = octet_length(claimed.attributes::text)
            FROM claimed
            WHERE c.project_id = $1 AND c.id = $2
            RETURNING 1""";

    private final Pool pool;
    private final CompletionCalls completions;

    public CallStore(Pool pool, CompletionCalls completions) {
        this.pool = pool;
        this.completions = completions;
    }

    public Uni<Void> start(CallStartRow row) {
        return start(pool, row);
    }

    /** An end whose output is a chat completion also links it to that completion, in the same transaction. */
    public Uni<Void> end(CallEndRow row) {
        List<CompletionCalls.Link> links = completions.clientCalls(List.of(row));
        if (links.isEmpty()) {
            return end(pool, row);
        }
        return pool.withTransaction(tx -> end(tx, row).chain(() -> completions.linkClientCalls(tx, links)));
    }

    /**
     * Writes the parts of a batch in one transaction. The first start and first end of a call go in
     * one row (half the writes for the usual batch, where both parts travel together); the remaining
     * starts, then the remaining ends, follow in order, so the merge is the same as part by part. Each
     * group is one statement over arrays of all its rows (see {@link UnnestUpsert}). Ends whose output is a chat
     * completion are linked to it ({@link CompletionCalls}) in the same transaction.
     */
    public Uni<Void> writeBatch(List<CallStartRow> starts, List<CallEndRow> ends) {
        List<CompletionCalls.Link> links = completions.clientCalls(ends);
        return pool.withTransaction(tx -> writeBatch(tx, starts, ends).chain(() -> completions.linkClientCalls(tx, links)));
    }

    /**
     * Writes the calls the inference gateway's usage records make of chat completions ({@code links}: the completion
     * of each call), except those whose completion a client's call already records, in one transaction.
     */
    public Uni<Void> writeGatewayCalls(List<CallStartRow> starts, List<CallEndRow> ends, List<CompletionCalls.Link> links) {
        return pool.withTransaction(tx -> completions.linkGatewayCalls(tx, links).flatMap(recordedByClient -> writeBatch(tx,
                starts.stream().filter(start -> !recordedByClient.contains(CompletionCalls.key(start.projectId(), start.id())))
                        .toList(),
                ends.stream().filter(end -> !recordedByClient.contains(CompletionCalls.key(end.projectId(), end.id())))
                        .toList())));
    }

    private static Uni<Void> writeBatch(SqlClient tx, List<CallStartRow> starts, List<CallEndRow> ends) {
        Map<String, CallEndRow> firstEnds = new HashMap<>();
        ends.forEach(end -> firstEnds.putIfAbsent(key(end.projectId(), end.id()), end));
        Set<CallEndRow> paired = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Tuple> complete = new ArrayList<>();
        List<Tuple> startsAlone = new ArrayList<>();
        for (CallStartRow start : starts) {
            CallEndRow end = firstEnds.get(key(start.projectId(), start.id()));
            if (end != null && paired.add(end)) {
                complete.add(completeValues(start, end).addValue(new String[] {start.inputsJson(), end.outputJson()}));
            } else {
                startsAlone.add(startRow(start));
            }
        }
        List<Tuple> endsAlone = ends.stream().filter(end -> !paired.contains(end)).map(CallStore::endRow).toList();
        return batch(tx, BATCH_COMPLETE, complete)
                .chain(() -> batch(tx, BATCH_START, startsAlone))
                .chain(() -> batch(tx, BATCH_END, endsAlone));
    }

    /** An update part: only the display name, last write wins; an unknown id stays invisible. */
    public Uni<Void> rename(String projectId, String id, String displayName, OffsetDateTime writtenAt) {
        return write(pool, UPSERT_DISPLAY_NAME, Tuple.of(projectId, id, displayName, writtenAt));
    }

    /**
     * Whether the call {@code id} of the project, an {@code opName} call, records the inference request
     * {@code requestId}: it does when it already did, or when no other request had it and it now does.
     */
    public Uni<Boolean> claimForRequest(String projectId, String id, String opName, String requestId) {
        return pool.preparedQuery(CLAIM_FOR_REQUEST).execute(Tuple.of(projectId, id, requestId, opName))
                .map(rows -> rows.rowCount() > 0);
    }

    /** The number of distinct ids marked: the requested ones and all their descendants. */
    public Uni<Long> deleteWithDescendants(String projectId, List<String> ids) {
        return pool.preparedQuery(DELETE_WITH_DESCENDANTS)
                .execute(Tuple.of(projectId, ids.toArray(String[]::new)))
                .map(rows -> rows.iterator().next().getLong("num_deleted"));
    }

    private static Uni<Void> start(SqlClient client, CallStartRow row) {
        return batch(client, BATCH_START, List.of(startRow(row)));
    }

    private static Uni<Void> end(SqlClient client, CallEndRow row) {
        return batch(client, BATCH_END, List.of(endRow(row)));
    }

    /** A start's values and its inputs, whose words are filed, as {@link UnnestUpsert} takes them. */
    private static Tuple startRow(CallStartRow row) {
        return startValues(row).addValue(new String[] {row.inputsJson()});
    }

    /** An end's values and its output, whose words are filed, as {@link UnnestUpsert} takes them. */
    private static Tuple endRow(CallEndRow row) {
        return endValues(row).addValue(new String[] {row.outputJson()});
    }

    private static Tuple startValues(CallStartRow row) {
        refuseEscapedNul(row.otelDumpJson());
        return Tuple.from(Arrays.asList(row.projectId(), row.id(), row.traceId(), row.parentId(),
                row.threadId(), row.turnId(), row.opName(), row.displayName(), row.displayNameWrittenAt(),
                row.startedAt(), row.attributesJson(), row.inputsJson(), row.inputRefs().toArray(String[]::new),
                row.svcUserId(), row.svcRunId(), row.svcRunStep(), row.otelDumpJson()));
    }

    private static Tuple completeValues(CallStartRow start, CallEndRow end) {
        Tuple values = startValues(start);
        Tuple endValues = endValues(end);
        for (int i = 2; i < endValues.size(); i++) {
            values.addValue(endValues.getValue(i));
        }
        return values;
    }

    private static String key(String projectId, String id) {
        return projectId + '\n' + id;
    }

    private static Tuple endValues(CallEndRow row) {
        return Tuple.from(Arrays.asList(row.projectId(), row.id(), row.endedAt(), row.exception(),
                row.outputJson(), row.outputRefs().toArray(String[]::new), row.summaryJson(), row.svcRunStepEnd()));
    }

    private static Uni<Void> batch(SqlClient client, UnnestUpsert upsert, List<Tuple> values) {
        return upsert.execute(client, values)
                .onFailure(CallStore::isNulCharacter).transform(CallStore::nulCharacterRefused);
    }

    private static List<UnnestUpsert.Column> columns(Object... namesAndKinds) {
        List<UnnestUpsert.Column> columns = new ArrayList<>();
        for (int i = 0; i < namesAndKinds.length; i += 2) {
            columns.add(new UnnestUpsert.Column((String) namesAndKinds[i], (UnnestUpsert.Kind) namesAndKinds[i + 1]));
        }
        return List.copyOf(columns);
    }

    private static List<UnnestUpsert.Column> concat(List<UnnestUpsert.Column> first, List<UnnestUpsert.Column> second) {
        List<UnnestUpsert.Column> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static Uni<Void> write(SqlClient client, String sql, Tuple values) {
        return client.preparedQuery(sql).execute(values)
                .onFailure(CallStore::isNulCharacter).transform(CallStore::nulCharacterRefused)
                .replaceWithVoid();
    }

    private static RefusedWriteException nulCharacterRefused(Throwable failure) {
        return RefusedWriteException.nulCharacter(failure.getMessage());
    }

    /**
     * otel_dump is stored as text, which takes a {@code \\u0000} escape that the jsonb read of it would
     * refuse, so it is refused on write, as the jsonb columns are.
     */
    private static void refuseEscapedNul(String json) {
        if (json == null) {
            return;
        }
        for (int at = json.indexOf("\\u0000"); at >= 0; at = json.indexOf("\\u0000", at + 1)) {
            int backslashes = 0;
            for (int i = at; i >= 0 && json.charAt(i) == '\\'; i--) {
                backslashes++;
            }
            if (backslashes % 2 == 1) {
                throw RefusedWriteException.nulCharacter("otel_dump");
            }
        }
    }

    private static boolean isNulCharacter(Throwable failure) {
        return failure instanceof PgException pg && NUL_CHARACTER_STATES.contains(pg.getSqlState());
    }

    /** The size of a JSON column goes with the value that column keeps: the first non-null one. */
    private static String sizeOfFirst(String column) {
        return "CASE WHEN c.%1$s IS NULL THEN EXCLUDED.%1$s_size_bytes ELSE c.%1$s_size_bytes END".formatted(column);
    }

    /** Keeps the stored refs and adds the new ones not seen yet (starts and ends may be repeated). */
    private static String appendNewRefs(String column) {
        return "c.%1$s || ARRAY(SELECT r FROM unnest(EXCLUDED.%1$s) AS r WHERE r <> ALL (c.%1$s))".formatted(column);
    }

    /** A row with the columns of a visible call (see {@code CallQueryStore} for the query form). */
    public static StoredCall toStoredCall(Row row) {
        return new StoredCall(
                row.getString("project_id"), row.getString("id"), row.getString("op_name"),
                row.getString("display_name"), row.getString("trace_id"), row.getString("parent_id"),
                row.getString("thread_id"), row.getString("turn_id"), row.getOffsetDateTime("started_at"),
                row.getString("attributes"), row.getString("inputs"), row.getOffsetDateTime("ended_at"),
                row.getString("exception"), row.getString("output"), row.getString("summary"),
                row.getString("svc_user_id"), row.getString("svc_run_id"), row.getLong("svc_run_step"),
                row.getLong("svc_run_step_end"), row.getOffsetDateTime("deleted_at"),
                row.getLong("storage_size_bytes"), row.getLong("total_storage_size_bytes"),
                row.getOffsetDateTime("expire_at"));
    }
}
