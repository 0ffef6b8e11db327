package org.llmplatform.tracing.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.llmplatform.tracing.store.query.CallQuerySql;
import org.llmplatform.tracing.store.query.CallsQuery;
import org.llmplatform.tracing.store.query.SqlStatement;

/** Runs calls queries: streamed through a server-side cursor, or counted. */
@ApplicationScoped
public class CallQueryStore {

    /** Counts of a calls query: matches and, when asked, the summed storage of the matched traces. */
    public record CallStats(long count, long totalStorageSizeBytes) {
    }

    /** A queried call and, when asked for, its feedback rows (a JSON array) and its costs (a JSON object). */
    public record QueriedCall(StoredCall call, String feedbackJson, String costsJson) {
    }

    private final Pool pool;

    public CallQueryStore(Pool pool) {
        this.pool = pool;
    }

    /** The matching calls as a cursor yields them, with back-pressure (see {@link Cursors}). */
    public Multi<QueriedCall> stream(CallsQuery query) {
        return Cursors.stream(pool, CallQuerySql.select(query))
                .map(row -> new QueriedCall(CallStore.toStoredCall(row), row.getString("feedback"),
                        row.getString("costs")));
    }

    public Uni<CallStats> stats(CallsQuery query) {
        SqlStatement statement = CallQuerySql.stats(query);
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new CallStats(row.getLong("count"), row.getLong("total_storage_size_bytes"));
                });
    }
}
