package org.llmplatform.inference.responses;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.util.Optional;

/** The SQL over {@code inference.responses}: stored responses, each its project's only. */
@Singleton
public class ResponsesStore {

    /** A stored response: the items of its conversation up to its own input, and the Response, as JSON texts. */
    public record Stored(String input, String response) {
    }

    private final Pool pool;

    public ResponsesStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> save(String id, String projectId, String input, String response) {
        return pool.preparedQuery("""
                        INSERT INTO inference.responses (id, project_id, input, response)
                        VALUES ($1, $2, $3::text::jsonb, $4::text::jsonb)""")
                .execute(Tuple.of(id, projectId, input, response)).replaceWithVoid();
    }

    public Uni<Optional<Stored>> find(String id, String projectId) {
        return pool.preparedQuery("""
                        SELECT input::text, response::text FROM inference.responses WHERE id = $1 AND project_id = $2""")
                .execute(Tuple.of(id, projectId))
                .map(rows -> first(rows).map(row -> new Stored(row.getString(0), row.getString(1))));
    }

    /** Whether a response of the project was there to delete. */
    public Uni<Boolean> delete(String id, String projectId) {
        return pool.preparedQuery("DELETE FROM inference.responses WHERE id = $1 AND project_id = $2")
                .execute(Tuple.of(id, projectId)).map(rows -> rows.rowCount() > 0);
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        var iterator = rows.iterator();
        return iterator.hasNext() ? Optional.of(iterator.next()) : Optional.empty();
    }
}
