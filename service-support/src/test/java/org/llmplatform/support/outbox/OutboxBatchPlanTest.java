package org.llmplatform.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

/**
 * The relay's batch statement on the test resources' PostgreSQL, prepared as a long-running service prepares it: run
 * while the outbox was empty, then on a backlog, in the relay's transaction. The rows a plan visits are counted from
 * {@code EXPLAIN ANALYZE}, which depends on the plan's shape, not on the machine's speed.
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
    void aBacklogIsTakenABatchAtATimeByAPlanMadeWhileTheOutboxWasEmpty() {
        JsonObject plan = pool.withTransaction(connection -> connection
                        .preparedQuery(OutboxRelay.LOCK).execute(Tuple.of(TABLE))
                        .chain(() -> connection.query("PREPARE batch(int) AS " + OutboxRelay.batchDeletion(TABLE))
                                .execute())
                        // PostgreSQL plans a prepared statement's first five executions for their parameters, then
                        // may keep a generic plan.
                        .chain(() -> connection.query(("EXECUTE batch(" + BATCH + ");").repeat(6)).execute())
                        .chain(() -> connection.query("INSERT INTO " + TABLE + " (topic, message_key, payload)"
                                + " SELECT 'artifact.events', 'k' || i, '{}'"
                                + " FROM generate_series(1, " + BACKLOG + ") i")
                                .execute())
                        .chain(() -> connection.query("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE batch(" + BATCH + ")")
                                .execute())
                        .call(() -> connection.query("DEALLOCATE batch").execute()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return ((JsonArray) row.getValue(0)).getJsonObject(0).getJsonObject("Plan");
                })
                .await().indefinitely();

        assertEquals(BATCH, plan.getInteger("Actual Rows"), "one batch deleted");
        long visited = rowsVisited(plan);
        // Planned for each execution, 1,000. Without the relay's plan_cache_mode its plan, made while the outbox was
        // empty, read the whole backlog for each batch (20,600), and the earlier `id IN (SELECT … LIMIT n)` joined the
        // backlog to the batch row by row (7,940,300).
        assertTrue(visited <= 10 * BATCH, "rows visited for a batch of " + BATCH + " out of " + BACKLOG + ": " + visited
                + "\n" + plan.encodePrettily());
    }

    /** Rows each node produced or filtered out, times its loops, over the whole plan. */
    private static long rowsVisited(JsonObject node) {
        long loops = node.getLong("Actual Loops", 1L);
        long own = (node.getLong("Actual Rows", 0L) + node.getLong("Rows Removed by Filter", 0L)
                + node.getLong("Rows Removed by Join Filter", 0L)) * loops;
        JsonArray children = node.getJsonArray("Plans", new JsonArray());
        for (int i = 0; i < children.size(); i++) {
            own += rowsVisited(children.getJsonObject(i));
        }
        return own;
    }
}
