package org.llmplatform.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.QueryPlans;

/**
 * The statements that begin a relay's round, on the test resources' PostgreSQL: what the batch's deletion visits on a
 * backlog (counted from {@code EXPLAIN ANALYZE}, which depends on the plan's shape, not on the machine's speed), and
 * what a round that waited for another one's lock sees.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class OutboxBatchPlanTest {

    private static final String TABLE = "support_test.outbox";
    private static final int BACKLOG = 10_000;
    private static final int BATCH = 200;

    private final Pool pool;

    OutboxBatchPlanTest(Pool pool) {
        this.pool = pool;
    }

    @BeforeEach
    void emptyAnalyzedOutbox() {
        sql("CREATE SCHEMA IF NOT EXISTS support_test");
        sql("DROP TABLE IF EXISTS " + TABLE);
        sql("CREATE TABLE " + TABLE + " (id bigserial PRIMARY KEY, topic text NOT NULL, message_key text,"
                + " payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())");
        sql("ANALYZE " + TABLE);
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }

    @Test
    void aBacklogIsTakenABatchAtATimeByAPlanMadeForItsRows() {
        sql("INSERT INTO " + TABLE + " (topic, message_key, payload)"
                + " SELECT 'artifact.events', 'k' || i, '{}' FROM generate_series(1, " + BACKLOG + ") i");
        String explained = OutboxRelay.takeBatch(TABLE, BATCH).replace("DELETE FROM", "EXPLAIN (ANALYZE, FORMAT JSON) DELETE FROM");
        JsonNode plan = pool.withConnection(connection -> connection.query(explained).execute()
                        .call(() -> connection.query("ROLLBACK").execute()))
                .map(results -> QueryPlans.plan(results.next().next().iterator().next().getValue(0).toString()))
                .await().indefinitely();

        assertEquals(BATCH, plan.path("Actual Rows").asInt(), "one batch deleted");
        long visited = QueryPlans.rowsVisited(plan);
        // 1,000. A generic plan cached while the outbox was empty read the whole backlog for each batch (20,600), and
        // the earlier `id IN (SELECT … LIMIT n)` joined the backlog to the batch row by row (7,940,300).
        assertTrue(visited <= 10 * BATCH, "rows visited for a batch of " + BATCH + " out of " + BACKLOG + ": " + visited
                + "\n" + plan.toPrettyString());
    }

    @Test
    void aRoundWaitingForTheLockTakesWhatTheRoundBeforeItCommitted() {
        String lock = "SELECT pg_advisory_xact_lock(hashtext('" + TABLE + "'))";
        RowSet<Row> taken = pool.withConnection(holder -> holder.query("BEGIN; " + lock).execute()
                        .chain(() -> holder.query("INSERT INTO " + TABLE + " (topic, message_key, payload)"
                                + " VALUES ('artifact.events', 'k', 'committed while the next round waited')").execute())
                        .chain(() -> {
                            Uni<RowSet<Row>> nextRound = pool.withConnection(relay -> relay.query(OutboxRelay.takeBatch(TABLE, BATCH))
                                    .execute()
                                    .call(() -> relay.query("COMMIT").execute()))
                                    .memoize().indefinitely();
                            nextRound.subscribe().with(started -> { }, failed -> { });
                            return waitingForLock().chain(() -> holder.query("COMMIT").execute()).chain(() -> nextRound);
                        }))
                .await().atMost(Duration.ofSeconds(30));

        RowSet<Row> deleted = taken.next().next();
        assertEquals(1, deleted.size(), "the row committed as the lock was released");
        assertEquals("committed while the next round waited", deleted.iterator().next().getString("payload"));
    }

    /** Completes once a backend waits for an advisory lock: the round started and blocked (within 10 s). */
    private Uni<Void> waitingForLock() {
        return pool.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .chain(waiting -> waiting > 0 ? Uni.createFrom().voidItem()
                        : Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(20)).chain(this::waitingForLock))
                .ifNoItem().after(Duration.ofSeconds(10)).fail();
    }
}
