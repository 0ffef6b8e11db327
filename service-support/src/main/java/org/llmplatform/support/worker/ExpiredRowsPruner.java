package org.llmplatform.support.worker;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlResult;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Forgets the rows of a table that are older than they are kept, by a timestamp column that an index leads with:
 * every {@code interval}, in batches of at most {@code batchSize} rows, each its own short statement, so that no
 * delete holds millions of row locks or one long transaction; a full batch is followed by the next at once. Replicas
 * share the work without doing it twice or waiting on each other: a batch takes only rows no other batch has locked
 * ({@code FOR UPDATE SKIP LOCKED}).
 */
public final class ExpiredRowsPruner {

    private static final Logger LOG = Logger.getLogger(ExpiredRowsPruner.class);
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    private final String what;
    private final Pool pool;
    private final Duration kept;
    private final int batchSize;
    private final String deleteBatch;
    private final PeriodicWorker rounds;

    /**
     * @param what the rows, for the log ("counted request ids")
     * @param table the table, schema-qualified
     * @param timeColumn when a row was last written; rows older than {@code kept} by it go
     */
    public ExpiredRowsPruner(String what, Pool pool, Vertx vertx, String table, String timeColumn, Duration kept,
            int batchSize, Duration interval) {
        if (!IDENTIFIER.matcher(table).matches() || !IDENTIFIER.matcher(timeColumn).matches()) {
            throw new IllegalArgumentException("not a plain identifier: " + table + ", " + timeColumn);
        }
        if (batchSize < 1 || kept.isNegative()) {
            throw new IllegalArgumentException("batch size must be positive and kept not negative");
        }
        this.what = what;
        this.pool = pool;
        this.kept = kept;
        this.batchSize = batchSize;
        this.deleteBatch = "DELETE FROM " + table + " WHERE ctid = ANY(ARRAY(SELECT ctid FROM " + table
                + " WHERE " + timeColumn + " < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))";
        this.rounds = new PeriodicWorker("Forgetting " + what, vertx, interval,
                () -> pruneBatch().map(forgotten -> forgotten == batchSize));
    }

    /** Prunes now and every interval. */
    public void start() {
        rounds.start();
    }

    /** No batch starts after this. */
    public void stop() {
        rounds.stop();
    }

    /** Forgets every row older than it is kept, batch by batch; answers how many. */
    public Uni<Integer> prune() {
        return Multi.createBy().repeating().uni(this::pruneBatch).whilst(forgotten -> forgotten == batchSize)
                .collect().with(Collectors.summingInt(Integer::intValue));
    }

    /** Forgets at most one batch of rows older than they are kept; answers how many. */
    Uni<Integer> pruneBatch() {
        OffsetDateTime cutoff = OffsetDateTime.now(ZoneOffset.UTC).minus(kept);
        return pool.preparedQuery(deleteBatch).execute(Tuple.of(cutoff, batchSize)).map(SqlResult::rowCount)
                .invoke(forgotten -> {
                    if (forgotten > 0) {
                        LOG.infof("Forgot %d %s last written more than %s ago", forgotten, what, kept);
                    }
                });
    }
}
