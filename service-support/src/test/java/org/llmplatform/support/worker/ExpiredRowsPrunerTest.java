package org.llmplatform.support.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

/** On the test resources' PostgreSQL: a table of rows written a day ago and just now, kept for an hour. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ExpiredRowsPrunerTest {

    private static final String TABLE = "support_test.expiring_rows";
    private static final Duration KEPT = Duration.ofHours(1);
    private static final Duration NO_TICK = Duration.ofHours(1);

    private final Pool pool;
    private final Vertx vertx;

    ExpiredRowsPrunerTest(Pool pool, Vertx vertx) {
        this.pool = pool;
        this.vertx = vertx;
    }

    @BeforeEach
    void freshTable() {
        sql("CREATE SCHEMA IF NOT EXISTS support_test");
        sql("DROP TABLE IF EXISTS " + TABLE);
        sql("CREATE TABLE " + TABLE + " (id int PRIMARY KEY, written_at timestamptz NOT NULL)");
        sql("CREATE INDEX ON " + TABLE + " (written_at)");
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().indefinitely();
    }

    private void insert(int from, int count, String age) {
        pool.preparedQuery("INSERT INTO " + TABLE + " SELECT i, now() - $3::text::interval FROM generate_series($1::int, $2::int) i")
                .execute(Tuple.of(from, from + count - 1, age)).await().indefinitely();
    }

    private List<Integer> ids() {
        return pool.query("SELECT id FROM " + TABLE + " ORDER BY id").execute().await().indefinitely().stream()
                .map(row -> row.getInteger(0)).toList();
    }

    private ExpiredRowsPruner pruner(int batchSize) {
        return new ExpiredRowsPruner("test rows", pool, vertx, TABLE, "written_at", KEPT, batchSize, NO_TICK);
    }

    @Test
    void rowsOlderThanKeptGoInBatchesAndNewerOnesStay() {
        insert(1, 25, "1 day");
        insert(100, 3, "59 minutes");

        ExpiredRowsPruner pruner = pruner(10);
        assertEquals(10, pruner.pruneBatch().await().indefinitely(), "one batch takes at most its size");
        assertEquals(15, pruner.prune().await().indefinitely(), "then the rest, batch by batch");

        assertEquals(List.of(100, 101, 102), ids());
        assertEquals(0, pruner.prune().await().indefinitely());
    }

    @Test
    void startedItPrunesAtOnceFollowingFullBatchesUntilNoneIsLeft() {
        insert(1, 35, "2 hours");
        insert(100, 1, "1 minute");
        ExpiredRowsPruner pruner = pruner(10);

        pruner.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> ids().equals(List.of(100)));
        } finally {
            pruner.stop();
        }
    }

    @Test
    void replicasPruningAtOnceShareTheRowsAndForgetEachOnce() {
        insert(1, 2000, "3 hours");

        List<Integer> forgotten = Uni.join().all(pruner(50).prune(), pruner(50).prune(), pruner(50).prune())
                .andFailFast().await().atMost(Duration.ofSeconds(60));

        assertEquals(2000, forgotten.stream().mapToInt(Integer::intValue).sum());
        assertEquals(List.of(), ids());
    }

    @Test
    void onlyPlainIdentifiersAreAccepted() {
        assertThrows(IllegalArgumentException.class, () -> new ExpiredRowsPruner("rows", pool, vertx,
                "t; DROP TABLE x", "written_at", KEPT, 10, NO_TICK));
        assertThrows(IllegalArgumentException.class, () -> new ExpiredRowsPruner("rows", pool, vertx,
                TABLE, "written_at", KEPT, 0, NO_TICK));
    }
}
