package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.model.events.BlobReference;

/** The SQL over {@code training.jobs}. Transitions run inside the caller's transaction. */
@ApplicationScoped
public class JobStore {

    private static final String COLUMNS = """
            id, model_id, status, request_digest, trajectories_uri, trajectories_sha256, trajectories_bytes, config,
            parent_step, dispatched_at, last_seq, end_reported, error_message, created_at, training_start, training_end, kind""";
    private static final String UNFINISHED = "status IN ('QUEUED', 'RUNNING')";

    private final Pool pool;

    public JobStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> insert(SqlClient transaction, UUID id, UUID modelId, JobKind kind, String requestDigest, BlobReference trajectories,
            String configJson) {
        return transaction.preparedQuery("""
                INSERT INTO training.jobs (id, model_id, status, request_digest, trajectories_uri, trajectories_sha256, trajectories_bytes, config, kind)
                VALUES ($1, $2, 'QUEUED', $3, $4, $5, $6, $7, $8)""")
                .execute(Tuple.from(List.of(id, modelId, requestDigest, trajectories.uri(), trajectories.sha256(), trajectories.byteCount(),
                        new JsonObject(configJson), kind.wireName())))
                .replaceWithVoid();
    }

    public Uni<Optional<Job>> find(UUID id) {
        return find(pool, id);
    }

    /**
     * Up to {@code limit} jobs of the model in the order they were created (newest first when {@code descending}),
     * starting past job {@code after} when given.
     */
    public Uni<List<Job>> listForModel(UUID modelId, Optional<UUID> after, boolean descending, int limit) {
        String direction = descending ? "DESC" : "ASC";
        String sql = ("SELECT " + COLUMNS + """
                 FROM training.jobs WHERE model_id = $1
                  AND ($2::uuid IS NULL OR (created_at, id) %s (SELECT created_at, id FROM training.jobs WHERE id = $2))
                ORDER BY created_at %s, id %s LIMIT $3""").formatted(descending ? "<" : ">", direction, direction);
        return pool.preparedQuery(sql).execute(Tuple.of(modelId, after.orElse(null), limit)).map(JobStore::all);
    }

    public Uni<Optional<Job>> find(SqlClient client, UUID id) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE id = $1").execute(Tuple.of(id)).map(JobStore::first);
    }

    /** An unfinished job of the model created from exactly the same request: what a retried POST gets back. */
    public Uni<Optional<Job>> findUnfinishedByDigest(SqlClient transaction, UUID modelId, String requestDigest) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE model_id = $1 AND request_digest = $2 AND "
                        + UNFINISHED + " ORDER BY created_at LIMIT 1")
                .execute(Tuple.of(modelId, requestDigest))
                .map(JobStore::first);
    }

    public Uni<List<Job>> unfinished(SqlClient transaction, UUID modelId) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE model_id = $1 AND " + UNFINISHED + " ORDER BY created_at")
                .execute(Tuple.of(modelId))
                .map(JobStore::all);
    }

    /** The job that trained step {@code step}'s parent and now waits for that checkpoint to finish. */
    public Uni<Optional<Job>> awaitingCheckpoint(SqlClient transaction, UUID modelId, int step) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE model_id = $1 AND status = 'RUNNING'"
                        + " AND end_reported AND parent_step = $2 - 1 FOR UPDATE")
                .execute(Tuple.of(modelId, step))
                .map(JobStore::first);
    }

    public Uni<Optional<Job>> lock(SqlClient transaction, UUID id) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE id = $1 FOR UPDATE").execute(Tuple.of(id)).map(JobStore::first);
    }

    public Uni<Void> markDispatched(SqlClient transaction, UUID id, int parentStep, Duration pickupTimeout) {
        return transaction.preparedQuery("""
                UPDATE training.jobs SET parent_step = $2, dispatched_at = now(), lease_expires_at = now() + $3::bigint * interval '1 millisecond'
                WHERE id = $1""")
                .execute(Tuple.of(id, parentStep, pickupTimeout.toMillis()))
                .replaceWithVoid();
    }

    /** Records that the trainer's event {@code seq} was taken and renews the lease. */
    public Uni<Void> acceptSeq(SqlClient transaction, UUID id, long seq, Duration lease) {
        return transaction.preparedQuery("""
                UPDATE training.jobs SET last_seq = $2, lease_expires_at = now() + $3::bigint * interval '1 millisecond' WHERE id = $1""")
                .execute(Tuple.of(id, seq, lease.toMillis()))
                .replaceWithVoid();
    }

    public Uni<Void> markRunning(SqlClient transaction, UUID id) {
        return transaction.preparedQuery("UPDATE training.jobs SET status = 'RUNNING', training_start = now() WHERE id = $1")
                .execute(Tuple.of(id))
                .replaceWithVoid();
    }

    public Uni<Void> markEndReported(SqlClient transaction, UUID id) {
        return transaction.preparedQuery("UPDATE training.jobs SET end_reported = true WHERE id = $1").execute(Tuple.of(id)).replaceWithVoid();
    }

    public Uni<Void> finish(SqlClient transaction, UUID id, JobStatus status, String errorMessage) {
        return transaction.preparedQuery("""
                UPDATE training.jobs SET status = $2, error_message = $3, training_end = now(), lease_expires_at = NULL,
                    training_start = coalesce(training_start, CASE WHEN $2 = 'COMPLETED' THEN now() END)
                WHERE id = $1""")
                .execute(Tuple.of(id, status.name(), errorMessage))
                .replaceWithVoid();
    }

    /** The oldest queued job of the model not yet handed to the trainers. */
    public Uni<Optional<Job>> nextUndispatched(SqlClient transaction, UUID modelId) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.jobs WHERE model_id = $1 AND status = 'QUEUED'"
                        + " AND dispatched_at IS NULL ORDER BY created_at, id LIMIT 1")
                .execute(Tuple.of(modelId))
                .map(JobStore::first);
    }

    public Uni<Boolean> hasDispatchedUnfinished(SqlClient transaction, UUID modelId) {
        return transaction.preparedQuery("SELECT 1 FROM training.jobs WHERE model_id = $1 AND dispatched_at IS NOT NULL AND " + UNFINISHED)
                .execute(Tuple.of(modelId))
                .map(rows -> rows.size() > 0);
    }

    /** Unfinished dispatched jobs whose lease ran out: their trainer never started them or went silent. */
    public Uni<List<UUID>> expiredLeases(int limit) {
        return pool.preparedQuery("SELECT id FROM training.jobs WHERE " + UNFINISHED + " AND lease_expires_at < now() ORDER BY lease_expires_at LIMIT $1")
                .execute(Tuple.of(limit))
                .map(rows -> {
                    List<UUID> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getUUID("id")));
                    return ids;
                });
    }

    public Uni<Boolean> leaseExpired(SqlClient transaction, UUID id) {
        return transaction.preparedQuery("SELECT 1 FROM training.jobs WHERE id = $1 AND " + UNFINISHED + " AND lease_expires_at < now()")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() > 0);
    }

    private static Optional<Job> first(RowSet<Row> rows) {
        List<Job> jobs = all(rows);
        return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.get(0));
    }

    private static List<Job> all(RowSet<Row> rows) {
        List<Job> jobs = new ArrayList<>();
        for (Row row : rows) {
            jobs.add(new Job(row.getUUID("id"), row.getUUID("model_id"), JobStatus.valueOf(row.getString("status")),
                    row.getString("request_digest"),
                    new BlobReference(row.getString("trajectories_uri"), row.getString("trajectories_sha256"), row.getLong("trajectories_bytes")),
                    row.getJsonObject("config").encode(), row.getInteger("parent_step"), instant(row, "dispatched_at"),
                    row.getLong("last_seq"), row.getBoolean("end_reported"), row.getString("error_message"), instant(row, "created_at"),
                    instant(row, "training_start"), instant(row, "training_end"), JobKind.of(row.getString("kind"))));
        }
        return jobs;
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
