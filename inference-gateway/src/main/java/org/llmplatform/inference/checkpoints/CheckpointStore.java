package org.llmplatform.inference.checkpoints;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The SQL over {@code inference.checkpoints}. */
@Singleton
public class CheckpointStore {

    private static final String COLUMNS = "entity, project, model_name, step, model_id, base_model, artifact_uri";

    private final Pool pool;

    public CheckpointStore(Pool pool) {
        this.pool = pool;
    }

    /** Registers the step unless it was registered before (a redelivered event); true when it is new. */
    public Uni<Boolean> register(Checkpoint checkpoint) {
        return pool.preparedQuery("INSERT INTO inference.checkpoints (" + COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7)"
                        + " ON CONFLICT DO NOTHING")
                .execute(Tuple.from(Arrays.asList(checkpoint.entity(), checkpoint.project(), checkpoint.modelName(),
                        checkpoint.step(), checkpoint.modelId(), checkpoint.baseModel(), checkpoint.artifactUri())))
                .map(rows -> rows.rowCount() == 1);
    }

    /** The given step, or the latest one when {@code step} is null. */
    public Uni<Optional<Checkpoint>> find(String entity, String project, String modelName, Integer step) {
        String sql = "SELECT " + COLUMNS + " FROM inference.checkpoints WHERE entity = $1 AND project = $2"
                + " AND model_name = $3" + (step == null ? " ORDER BY step DESC LIMIT 1" : " AND step = $4");
        Tuple args = step == null ? Tuple.of(entity, project, modelName) : Tuple.of(entity, project, modelName, step);
        return pool.preparedQuery(sql).execute(args)
                .map(rows -> rows.iterator().hasNext() ? Optional.of(toCheckpoint(rows.iterator().next()))
                        : Optional.empty());
    }

    /** Every step of every model of these entities (all entities when {@code entities} is null). */
    public Uni<List<Checkpoint>> ofEntities(List<String> entities) {
        String order = " ORDER BY entity, project, model_name, step";
        Uni<io.vertx.mutiny.sqlclient.RowSet<Row>> rows = entities == null
                ? pool.query("SELECT " + COLUMNS + " FROM inference.checkpoints" + order).execute()
                : pool.preparedQuery("SELECT " + COLUMNS + " FROM inference.checkpoints WHERE entity = ANY($1)" + order)
                        .execute(Tuple.of(entities.toArray(String[]::new)));
        return rows.map(result -> {
            List<Checkpoint> checkpoints = new ArrayList<>();
            result.forEach(row -> checkpoints.add(toCheckpoint(row)));
            return checkpoints;
        });
    }

    private static Checkpoint toCheckpoint(Row row) {
        return new Checkpoint(row.getString("entity"), row.getString("project"), row.getString("model_name"),
                row.getInteger("step"), row.getString("model_id"), row.getString("base_model"),
                row.getString("artifact_uri"));
    }
}
