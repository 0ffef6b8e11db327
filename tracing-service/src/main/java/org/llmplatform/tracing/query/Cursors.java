package org.llmplatform.tracing.query;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Streams a query's rows through a server-side cursor with back-pressure: PostgreSQL is read only as
 * fast as the subscriber requests, {@link #FETCH_SIZE} rows per round trip. The cursor lives in a
 * transaction on its own connection, released when the stream ends, fails or is cancelled.
 */
public final class Cursors {

    static final int FETCH_SIZE = 1000;

    public static Multi<Row> stream(Pool pool, SqlStatement statement) {
        return Multi.createFrom().resourceFromUni(() -> pool.getConnection().chain(Cursor::open),
                        cursor -> cursor.rows(statement))
                .withFinalizer(Cursor::close);
    }

    private record Cursor(SqlConnection connection, Transaction transaction) {

        static Uni<Cursor> open(SqlConnection connection) {
            return connection.begin().map(transaction -> new Cursor(connection, transaction))
                    .onFailure().call(connection::close);
        }

        Multi<Row> rows(SqlStatement statement) {
            return connection.prepare(statement.sql()).onItem().transformToMulti(prepared ->
                    prepared.createStream(FETCH_SIZE, Tuple.from(statement.params())).toMulti());
        }

        Uni<Void> close() {
            return transaction.rollback().onFailure().recoverWithNull().chain(connection::close);
        }
    }

    private Cursors() {
    }
}
