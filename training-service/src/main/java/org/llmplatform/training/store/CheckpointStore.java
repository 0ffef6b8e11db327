package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The SQL over {@code training.checkpoints}. */
@ApplicationScoped
public class CheckpointStore {

    private final Pool pool;

    public CheckpointStore(Pool pool) {
        this.pool = pool;
    }

    /** Saves step {@code step} of the model unless it is already there; true when this call saved it. */
    public Uni<Boolean> save(SqlClient transaction, UUID modelId, int step, String artifactUri, String jobId, Map<String, Double> metrics) {
        return transaction.preparedQuery("""
                INSERT INTO training.checkpoints (id, model_id, step, artifact_uri, job_id, metrics) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT ON CONSTRAINT checkpoints_step_unique DO NOTHING""")
                .execute(Tuple.of(UUID.randomUUID(), modelId, step, artifactUri, jobId, new JsonObject(new LinkedHashMap<>(metrics))))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<Integer>> stepOf(UUID modelId, UUID checkpointId) {
        return pool.preparedQuery("SELECT step FROM training.checkpoints WHERE model_id = $1 AND id = $2")
                .execute(Tuple.of(modelId, checkpointId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getInteger("step")));
    }

    /** The model's highest step: the one the next training job starts from. */
    public Uni<Optional<CheckpointRef>> latest(SqlClient client, UUID modelId) {
        return client.preparedQuery("SELECT step, artifact_uri FROM training.checkpoints WHERE model_id = $1 ORDER BY step DESC LIMIT 1")
                .execute(Tuple.of(modelId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(new CheckpointRef(rows.iterator().next().getInteger("step"), rows.iterator().next().getString("artifact_uri"))));
    }

    public Uni<Optional<CheckpointRef>> find(UUID modelId, int step) {
        return pool.preparedQuery("SELECT step, artifact_uri FROM training.checkpoints WHERE model_id = $1 AND step = $2")
                .execute(Tuple.of(modelId, step))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(new CheckpointRef(rows.iterator().next().getInteger("step"), rows.iterator().next().getString("artifact_uri"))));
    }

    public Uni<Boolean> exists(SqlClient client, UUID modelId, int step) {
        return client.preparedQuery("SELECT 1 FROM training.checkpoints WHERE model_id = $1 AND step = $2")
                .execute(Tuple.of(modelId, step))
                .map(rows -> rows.size() > 0);
    }

    public Uni<Integer> count(SqlClient client, UUID modelId) {
        return client.preparedQuery("SELECT count(*) AS n FROM training.checkpoints WHERE model_id = $1")
                .execute(Tuple.of(modelId))
                .map(rows -> rows.iterator().next().getLong("n").intValue());
    }

    /** Up to {@code limit} checkpoints of the model ordered by step, starting past {@code afterStep} when given. */
    public Uni<List<Checkpoint>> list(UUID modelId, Optional<Integer> afterStep, boolean descending, int limit) {
        String sql = descending
                ? "SELECT id, step, metrics, created_at FROM training.checkpoints WHERE model_id = $1 AND step < $2 ORDER BY step DESC LIMIT $3"
                : "SELECT id, step, metrics, created_at FROM training.checkpoints WHERE model_id = $1 AND step > $2 ORDER BY step ASC LIMIT $3";
        int bound = afterStep.orElse(descending ? Integer.MAX_VALUE : -1);
        return pool.preparedQuery(sql)
                .execute(Tuple.of(modelId, bound, limit))
                .map(rows -> {
                    List<Checkpoint> checkpoints = new ArrayList<>();
                    rows.forEach(row -> checkpoints.add(new Checkpoint(row.getUUID("id"), row.getInteger("step"), metrics(row),
                            row.getOffsetDateTime("created_at").toInstant())));
                    return checkpoints;
                });
    }

    /** Deletes those of {@code steps} that the model has; returns the steps deleted. */
    public Uni<List<Integer>> delete(SqlClient transaction, UUID modelId, List<Integer> steps) {
        return transaction.preparedQuery("DELETE FROM training.checkpoints WHERE model_id = $1 AND step = ANY($2) RETURNING step")
                .execute(Tuple.of(modelId, steps.toArray(Integer[]::new)))
                .map(rows -> {
                    List<Integer> deleted = new ArrayList<>();
                    rows.forEach(row -> deleted.add(row.getInteger("step")));
                    return deleted;
                });
    }

    /** Adds the metrics to those of the model's latest checkpoint (same names are overwritten); returns its step. */
    public Uni<Optional<Integer>> mergeIntoLatest(UUID modelId, Map<String, Double> metrics) {
        return pool.preparedQuery("""
                UPDATE training.checkpoints SET metrics = metrics || $2
                WHERE id = (SELECT id FROM training.checkpoints WHERE model_id = $1 ORDER BY step DESC LIMIT 1)
                RETURNING step""")
                .execute(Tuple.of(modelId, new JsonObject(new LinkedHashMap<>(metrics))))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getInteger("step")));
    }

    private static Map<String, Double> metrics(Row row) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        row.getJsonObject("metrics").forEach(entry -> metrics.put(entry.getKey(), ((Number) entry.getValue()).doubleValue()));
        return metrics;
    }
}
