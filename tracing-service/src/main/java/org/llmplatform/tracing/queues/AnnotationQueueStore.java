package org.llmplatform.tracing.queues;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.query.Cursors;
import org.llmplatform.tracing.query.SqlStatement;

/** The SQL over {@code tracing.annotation_queues}, {@code annotation_queue_items} and their progress rows. */
@ApplicationScoped
public class AnnotationQueueStore {

    /** A queue named by the project it lives in. */
    public record QueueKey(String projectId, String queueId) {
    }

    private static final String QUEUE_COLUMNS =
            "id, project_id, name, description, scorer_refs, created_at, created_by, updated_at, deleted_at";

    private static final String INSERT_QUEUE = """
            INSERT INTO tracing.annotation_queues (project_id, id, name, description, scorer_refs, created_at, created_by,
                updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $6)""";

    private static final String READ_QUEUE = "SELECT " + QUEUE_COLUMNS
            + " FROM tracing.annotation_queues WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL";

    private static final String UPDATE_QUEUE = """
            UPDATE tracing.annotation_queues
            SET name = coalesce($3, name), description = coalesce($4, description),
                scorer_refs = coalesce($5, scorer_refs), updated_at = $6
            WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL
            RETURNING\s""" + QUEUE_COLUMNS;

    private static final String DELETE_QUEUE = """
            UPDATE tracing.annotation_queues SET deleted_at = $3, updated_at = $3
            WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL
            RETURNING\s""" + QUEUE_COLUMNS;

    private static final String LIVE_QUEUES = """
            SELECT q.project_id, q.id FROM tracing.annotation_queues q
            JOIN unnest($1::text[], $2::text[]) AS wanted(project_id, id)
                ON q.project_id = wanted.project_id AND q.id = wanted.id
            WHERE q.deleted_at IS NULL""";

    private static final String QUEUED_CALLS = """
            SELECT DISTINCT call_id FROM tracing.annotation_queue_items
            WHERE project_id = $1 AND queue_id = $2 AND call_id = ANY($3::text[]) AND deleted_at IS NULL""";

    /** The calls' start, end, op and trace are copied in; a call that never started cannot be shown, so is not. */
    private static final String ADD_CALLS = """
            INSERT INTO tracing.annotation_queue_items (project_id, id, queue_id, call_id, call_started_at,
                call_ended_at, call_op_name, call_trace_id, display_fields, added_by, created_at, created_by, updated_at)
            SELECT $1, wanted.item_id, $2, c.id, c.started_at, c.ended_at, coalesce(c.op_name, ''),
                coalesce(c.trace_id, ''), $5::text[], $6, $7, $6, $7
            FROM unnest($3::text[], $4::text[]) AS wanted(call_id, item_id)
            JOIN tracing.calls c ON c.project_id = $1 AND c.id = wanted.call_id
            WHERE c.started_at IS NOT NULL
            ON CONFLICT (project_id, queue_id, call_id) WHERE deleted_at IS NULL DO NOTHING""";

    private static final String PROGRESS_OF = """
            SELECT annotation_state FROM tracing.annotator_queue_items_progress
            WHERE project_id = $1 AND queue_item_id = $2 AND annotator_id = $3 AND deleted_at IS NULL""";

    private static final String ITEM_EXISTS = """
            SELECT 1 FROM tracing.annotation_queue_items
            WHERE project_id = $1 AND queue_id = $2 AND id = $3 AND deleted_at IS NULL""";

    /** A concurrent first step by the same annotator loses quietly: the state machine saw no row either. */
    private static final String CREATE_PROGRESS = """
            INSERT INTO tracing.annotator_queue_items_progress (project_id, id, queue_item_id, queue_id, annotator_id,
                annotation_state, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
            ON CONFLICT (project_id, queue_item_id, annotator_id) WHERE deleted_at IS NULL DO NOTHING""";

    private static final String UPDATE_PROGRESS = """
            UPDATE tracing.annotator_queue_items_progress SET annotation_state = $4, updated_at = $5
            WHERE project_id = $1 AND queue_item_id = $2 AND annotator_id = $3 AND deleted_at IS NULL""";

    /** Every queue asked for, in the order asked, with zeros for one that has no items (or does not exist). */
    private static final String STATS = """
            SELECT wanted.queue_id,
                (SELECT count(*) FROM tracing.annotation_queue_items i
                 WHERE i.project_id = $1 AND i.queue_id = wanted.queue_id AND i.deleted_at IS NULL) AS total_items,
                (SELECT count(DISTINCT p.queue_item_id) FROM tracing.annotator_queue_items_progress p
                 WHERE p.project_id = $1 AND p.queue_id = wanted.queue_id AND p.deleted_at IS NULL
                   AND p.annotation_state IN ('completed', 'skipped')) AS completed_items
            FROM unnest($2::text[]) WITH ORDINALITY AS wanted(queue_id, position)
            ORDER BY wanted.position""";

    private final Pool pool;

    public AnnotationQueueStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> insert(AnnotationQueueSchema queue, OffsetDateTime at) {
        return pool.preparedQuery(INSERT_QUEUE).execute(Tuple.from(Arrays.asList(queue.projectId(), queue.id(),
                queue.name(), queue.description(), queue.scorerRefs().toArray(String[]::new), at, queue.createdBy())))
                .replaceWithVoid();
    }

    /** The live queue, or null. */
    public Uni<AnnotationQueueSchema> read(String projectId, String queueId) {
        return pool.preparedQuery(READ_QUEUE).execute(Tuple.of(projectId, queueId)).map(AnnotationQueueStore::firstQueue);
    }

    /** Sets the non-null fields; the updated live queue, or null when there is none. */
    public Uni<AnnotationQueueSchema> update(String projectId, String queueId, String name, String description,
            List<String> scorerRefs, OffsetDateTime at) {
        String[] refs = scorerRefs == null ? null : scorerRefs.toArray(String[]::new);
        return pool.preparedQuery(UPDATE_QUEUE).execute(Tuple.from(Arrays.asList(projectId, queueId, name, description,
                refs, at))).map(AnnotationQueueStore::firstQueue);
    }

    /** Marks the queue deleted; the queue as it is now, or null when there was no live one. */
    public Uni<AnnotationQueueSchema> delete(String projectId, String queueId, OffsetDateTime at) {
        return pool.preparedQuery(DELETE_QUEUE).execute(Tuple.of(projectId, queueId, at))
                .map(AnnotationQueueStore::firstQueue);
    }

    public Multi<AnnotationQueueSchema> query(SqlStatement statement) {
        return Cursors.stream(pool, statement).map(AnnotationQueueStore::queue);
    }

    /** Which of {@code queues} exist and are not deleted. */
    public Uni<Set<QueueKey>> live(List<QueueKey> queues) {
        String[] projects = queues.stream().map(QueueKey::projectId).toArray(String[]::new);
        String[] ids = queues.stream().map(QueueKey::queueId).toArray(String[]::new);
        return pool.preparedQuery(LIVE_QUEUES).execute(Tuple.of(projects, ids)).map(rows -> {
            Set<QueueKey> live = new HashSet<>();
            rows.forEach(row -> live.add(new QueueKey(row.getString("project_id"), row.getString("id"))));
            return live;
        });
    }

    /**
     * Queues the calls not in the queue yet, as the reference counts: when none is new, every id sent is a
     * duplicate (repeats included); otherwise the duplicates are the distinct calls already queued, and the added
     * count is the new calls found in the project.
     */
    public Uni<AddedCalls> addCalls(String projectId, String queueId, List<String> callIds, List<String> displayFields,
            String addedBy, OffsetDateTime at) {
        return pool.withTransaction(tx -> tx.preparedQuery(QUEUED_CALLS)
                .execute(Tuple.of(projectId, queueId, callIds.toArray(String[]::new)))
                .chain(rows -> {
                    Set<String> queued = new HashSet<>();
                    rows.forEach(row -> queued.add(row.getString("call_id")));
                    Set<String> fresh = new LinkedHashSet<>(callIds);
                    fresh.removeAll(queued);
                    if (fresh.isEmpty()) {
                        return Uni.createFrom().item(new AddedCalls(0, callIds.size()));
                    }
                    return insertItems(tx, projectId, queueId, List.copyOf(fresh), displayFields, addedBy, at)
                            .map(added -> new AddedCalls(added, queued.size()));
                }));
    }

    /** The annotator's state on the item, or null when they have none. */
    public Uni<String> progressOf(String projectId, String itemId, String annotator) {
        return pool.preparedQuery(PROGRESS_OF).execute(Tuple.of(projectId, itemId, annotator))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getString("annotation_state") : null);
    }

    public Uni<Boolean> itemExists(String projectId, String queueId, String itemId) {
        return pool.preparedQuery(ITEM_EXISTS).execute(Tuple.of(projectId, queueId, itemId))
                .map(rows -> rows.rowCount() > 0);
    }

    public Uni<Void> createProgress(String projectId, String queueId, String itemId, String annotator, String state,
            OffsetDateTime at) {
        return pool.preparedQuery(CREATE_PROGRESS).execute(Tuple.from(Arrays.asList(projectId, Uuids.v7().toString(),
                itemId, queueId, annotator, state, at))).replaceWithVoid();
    }

    public Uni<Void> updateProgress(String projectId, String itemId, String annotator, String state, OffsetDateTime at) {
        return pool.preparedQuery(UPDATE_PROGRESS).execute(Tuple.of(projectId, itemId, annotator, state, at))
                .replaceWithVoid();
    }

    public Uni<List<AnnotationQueueItemSchema>> items(SqlStatement statement, boolean withPosition) {
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params())).map(rows -> {
            List<AnnotationQueueItemSchema> items = new ArrayList<>();
            rows.forEach(row -> items.add(item(row, withPosition)));
            return items;
        });
    }

    public Uni<List<AnnotationQueueStatsSchema>> stats(String projectId, List<String> queueIds) {
        return pool.preparedQuery(STATS).execute(Tuple.of(projectId, queueIds.toArray(String[]::new))).map(rows -> {
            List<AnnotationQueueStatsSchema> stats = new ArrayList<>();
            rows.forEach(row -> stats.add(new AnnotationQueueStatsSchema(row.getString("queue_id"),
                    row.getLong("total_items"), row.getLong("completed_items"))));
            return stats;
        });
    }

    private static Uni<Long> insertItems(SqlClient tx, String projectId, String queueId, List<String> callIds,
            List<String> displayFields, String addedBy, OffsetDateTime at) {
        String[] itemIds = callIds.stream().map(call -> Uuids.v7().toString()).toArray(String[]::new);
        return tx.preparedQuery(ADD_CALLS).execute(Tuple.from(Arrays.asList(projectId, queueId,
                        callIds.toArray(String[]::new), itemIds, displayFields.toArray(String[]::new), addedBy, at)))
                .map(rows -> (long) rows.rowCount());
    }

    private static AnnotationQueueSchema firstQueue(RowSet<Row> rows) {
        return rows.iterator().hasNext() ? queue(rows.iterator().next()) : null;
    }

    private static AnnotationQueueSchema queue(Row row) {
        return new AnnotationQueueSchema(row.getString("id"), row.getString("project_id"), row.getString("name"),
                row.getString("description"), List.of(row.getArrayOfStrings("scorer_refs")), time(row, "created_at"),
                row.getString("created_by"), time(row, "updated_at"), time(row, "deleted_at"));
    }

    private static AnnotationQueueItemSchema item(Row row, boolean withPosition) {
        String state = row.getString("annotation_state");
        return new AnnotationQueueItemSchema(row.getString("id"), row.getString("project_id"),
                row.getString("queue_id"), row.getString("call_id"), time(row, "call_started_at"),
                time(row, "call_ended_at"), row.getString("call_op_name"), row.getString("call_trace_id"),
                List.of(row.getArrayOfStrings("display_fields")), row.getString("added_by"),
                state == null ? AnnotationProgress.UNSTARTED : state, row.getString("annotator_user_id"),
                time(row, "created_at"), row.getString("created_by"), time(row, "updated_at"),
                time(row, "deleted_at"), withPosition ? row.getLong("position_in_queue") : null);
    }

    private static String time(Row row, String column) {
        return Timestamps.format(row.getOffsetDateTime(column));
    }
}
