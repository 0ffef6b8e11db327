package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
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
        Row row = rows.iterator().next();
        return Optional.of(new Model(row.getUUID("id"), row.getString("entity"), row.getString("project"),
                row.getString("name"), row.getString("base_model")));
    }
}
