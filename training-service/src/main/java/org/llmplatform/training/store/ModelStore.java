package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

/** The SQL over {@code training.models}. */
@ApplicationScoped
public class ModelStore {

    private static final String COLUMNS = "id, entity, project, name, base_model";

    private final Pool pool;

    public ModelStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Registers the model together with its step 0 checkpoint (the untrained identity adapter) in one
     * statement, or finds the model already registered under the same name.
     */
    public Uni<ModelRegistration> register(Model model) {
        return pool.preparedQuery("""
                WITH model AS (
                    INSERT INTO training.models (id, entity, project, name, base_model) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT ON CONSTRAINT models_name_unique DO NOTHING
                    RETURNING id)
                INSERT INTO training.checkpoints (id, model_id, step) SELECT $6, id, 0 FROM model""")
                .execute(Tuple.of(model.id(), model.entity(), model.project(), model.name(), model.baseModel(),
                        UUID.randomUUID()))
                .chain(rows -> rows.rowCount() == 1
                        ? Uni.createFrom().item(new ModelRegistration(model, true))
                        : findByName(model.entity(), model.project(), model.name())
                                .map(existing -> new ModelRegistration(existing.orElseThrow(
                                        () -> new IllegalStateException("model " + model.name() + " vanished while being registered")), false)));
    }

    public Uni<Optional<Model>> findById(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM training.models WHERE id = $1")
                .execute(Tuple.of(id))
                .map(ModelStore::firstModel);
    }

    private Uni<Optional<Model>> findByName(String entity, String project, String name) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM training.models WHERE entity = $1 AND project = $2 AND name = $3")
                .execute(Tuple.of(entity, project, name))
                .map(ModelStore::firstModel);
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
