package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
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

    /** Saves step {@code step} of the model unless it is already there or the model is unknown. */
    public Uni<CheckpointSaveOutcome> save(UUID modelId, int step, String artifactUri, String jobId, Map<String, Double> metrics) {
        return pool.preparedQuery("""
                WITH model AS (SELECT id FROM training.models WHERE id = $2),
                saved AS (
                    INSERT INTO training.checkpoints (id, model_id, step, artifact_uri, job_id, metrics)
                    SELECT $1, id, $3, $4, $5, $6 FROM model
                    ON CONFLICT ON CONSTRAINT checkpoints_step_unique DO NOTHING
                    RETURNING id)
                SELECT EXISTS (SELECT 1 FROM model) AS model_found, EXISTS (SELECT 1 FROM saved) AS saved""")
                .execute(Tuple.of(UUID.randomUUID(), modelId, step, artifactUri, jobId, new JsonObject(new LinkedHashMap<>(metrics))))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    if (!row.getBoolean("model_found")) {
                        return CheckpointSaveOutcome.UNKNOWN_MODEL;
                    }
                    return row.getBoolean("saved") ? CheckpointSaveOutcome.REGISTERED : CheckpointSaveOutcome.ALREADY_REGISTERED;
                });
    }

    public Uni<Optional<Integer>> stepOf(UUID modelId, UUID checkpointId) {
        return pool.preparedQuery("SELECT step FROM training.checkpoints WHERE model_id = $1 AND id = $2")
                .execute(Tuple.of(modelId, checkpointId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getInteger("step")));
    }

    /** Up to {@code limit} checkpoints of the model ordered by step, starting past {@code afterStep} when given. */
    public Uni<List<Checkpoint>> list(UUID modelId, Optional<Integer> afterStep, boolean descending, int limit) {
        String sql = descending
                ? "SELECT id, step, metrics FROM training.checkpoints WHERE model_id = $1 AND step < $2 ORDER BY step DESC LIMIT $3"
                : "SELECT id, step, metrics FROM training.checkpoints WHERE model_id = $1 AND step > $2 ORDER BY step ASC LIMIT $3";
        int bound = afterStep.orElse(descending ? Integer.MAX_VALUE : -1);
        return pool.preparedQuery(sql)
                .execute(Tuple.of(modelId, bound, limit))
                .map(rows -> {
                    List<Checkpoint> checkpoints = new ArrayList<>();
                    rows.forEach(row -> checkpoints.add(new Checkpoint(row.getUUID("id"), row.getInteger("step"), metrics(row))));
                    return checkpoints;
                });
    }

    private static Map<String, Double> metrics(Row row) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        row.getJsonObject("metrics").forEach(entry -> metrics.put(entry.getKey(), ((Number) entry.getValue()).doubleValue()));
        return metrics;
    }
}
