package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The SQL over {@code training.models} and its tombstones. */
@ApplicationScoped
public class ModelStore {

    private static final String COLUMNS = "id, entity, project, name, base_model";

    private final Pool pool;

    public ModelStore(Pool pool) {
        this.pool = pool;
    }

    /** Inserts the model unless its name is taken; true when this call created it. */
    public Uni<Boolean> insert(SqlClient transaction, Model model) {
        return transaction.preparedQuery("""
                INSERT INTO training.models (id, entity, project, name, base_model) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT ON CONSTRAINT models_name_unique DO NOTHING""")
                .execute(Tuple.of(model.id(), model.entity(), model.project(), model.name(), model.baseModel()))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<Model>> findById(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM training.models WHERE id = $1")
                .execute(Tuple.of(id))
                .map(ModelStore::firstModel);
    }

    /** The model, its row locked until the transaction ends: what serialises the jobs of one model. */
    public Uni<Optional<Model>> lock(SqlClient transaction, UUID id) {
        return transaction.preparedQuery("SELECT " + COLUMNS + " FROM training.models WHERE id = $1 FOR UPDATE")
                .execute(Tuple.of(id))
                .map(ModelStore::firstModel);
    }

    public Uni<Optional<Model>> findByName(SqlClient client, String entity, String project, String name) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM training.models WHERE entity = $1 AND project = $2 AND name = $3")
                .execute(Tuple.of(entity, project, name))
                .map(ModelStore::firstModel);
    }

    /**
     * Up to {@code limit} models of {@code entity/project} in the order they were registered (newest first when
     * {@code descending}), starting past model {@code after} when given, each with its latest step.
     */
    public Uni<List<ModelSummary>> listInProject(String entity, String project, Optional<UUID> after, boolean descending, int limit) {
        String direction = descending ? "DESC" : "ASC";
        String sql = """
                SELECT m.id, m.entity, m.project, m.name, m.base_model, m.created_at,
                       (SELECT max(c.step) FROM training.checkpoints c WHERE c.model_id = m.id) AS latest_step
                FROM training.models m
                WHERE m.entity = $1 AND m.project = $2
                  AND ($3::uuid IS NULL OR (m.created_at, m.id) %s (SELECT created_at, id FROM training.models WHERE id = $3))
                ORDER BY m.created_at %s, m.id %s LIMIT $4""".formatted(descending ? "<" : ">", direction, direction);
        return pool.preparedQuery(sql)
                .execute(Tuple.of(entity, project, after.orElse(null), limit))
                .map(rows -> {
                    List<ModelSummary> models = new ArrayList<>();
                    rows.forEach(row -> models.add(new ModelSummary(model(row), row.getInteger("latest_step"),
                            row.getOffsetDateTime("created_at").toInstant())));
                    return models;
                });
    }

    /** Deletes the model (its checkpoints and jobs go with it) and leaves a tombstone. */
    public Uni<Void> delete(SqlClient transaction, Model model) {
        return transaction.preparedQuery("""
                WITH deleted AS (DELETE FROM training.models WHERE id = $1 RETURNING id, entity)
                INSERT INTO training.deleted_models (id, entity) SELECT id, entity FROM deleted ON CONFLICT (id) DO NOTHING""")
                .execute(Tuple.of(model.id()))
                .replaceWithVoid();
    }

    /** The entity of a model deleted earlier, if this id was one. */
    public Uni<Optional<String>> deletedEntity(UUID id) {
        return pool.preparedQuery("SELECT entity FROM training.deleted_models WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString("entity")));
    }

    private static Optional<Model> firstModel(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        return Optional.of(model(rows.iterator().next()));
    }

    private static Model model(Row row) {
        return new Model(row.getUUID("id"), row.getString("entity"), row.getString("project"), row.getString("name"),
                row.getString("base_model"));
    }
}
