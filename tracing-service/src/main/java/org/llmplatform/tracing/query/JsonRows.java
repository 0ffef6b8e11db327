package org.llmplatform.tracing.query;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** Runs a statement built by {@link QuerySql#rows}, which selects one JSON object per row as column {@code row}. */
public final class JsonRows {

    public static Uni<List<String>> query(Pool pool, SqlStatement statement) {
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params())).map(rows -> {
            List<String> result = new ArrayList<>();
            for (Row row : rows) {
                result.add(row.getString("row"));
            }
            return result;
        });
    }

    private JsonRows() {
    }
}
