package org.llmplatform.automation.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.QueryPlans;

/**
 * What recording a finished attempt reads, on the test resources' PostgreSQL with many deliveries made already: counted
 * from {@code EXPLAIN ANALYZE}, which depends on the plan's shape, not on the machine's speed. Everything is rolled back.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class DeliveryStorePlanTest {

    private static final int DELIVERIES = 10_000;
    private static final UUID WEBHOOK = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID AUTOMATION = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    /** The {@code n}th delivery's id is this followed by {@code n} in 12 digits. */
    private static final String DELIVERY_ID_PREFIX = "00000000-0000-0000-0001-";

    private final Pool pool;

    DeliveryStorePlanTest(Pool pool) {
        this.pool = pool;
    }

    /** A long-running service's statement may run under a generic plan; a fresh one plans for its parameters. */
    @ParameterizedTest
    @ValueSource(strings = {"force_generic_plan", "force_custom_plan"})
    void recordingAnAttemptReadsItsOwnDeliveryNotEveryDelivery(String planCacheMode) {
        JsonNode plan = pool.withConnection(connection -> connection.query("BEGIN; SET LOCAL plan_cache_mode = " + planCacheMode + ";"
                        + " INSERT INTO automation.webhooks (id, entity, name, url)"
                        + "   VALUES ('" + WEBHOOK + "', 'plan-test', 'hook', 'http://127.0.0.1:9/hook');"
                        + " INSERT INTO automation.automations (id, entity, name, enabled, scope_type, event_type, event_filter, webhook_id,"
                        + "   payload_template, created_by) VALUES ('" + AUTOMATION + "', 'plan-test', 'all', true,"
                        + "   'entity', 'CREATE_ARTIFACT', '{}', '" + WEBHOOK + "', '{}', 'tester');"
                        + " INSERT INTO automation.events (event_id, event_type, entity, project, collection, occurred_at)"
                        + "   SELECT 'plan-test-' || i, 'CREATE_ARTIFACT', 'plan-test', 'p', 'c', now()"
                        + "   FROM generate_series(1, " + DELIVERIES + ") i;"
                        + " INSERT INTO automation.deliveries (id, event_id, automation_id, webhook_id, payload_template, payload_masked,"
                        + "   status, attempt_count, lease_until)"
                        + "   SELECT ('" + DELIVERY_ID_PREFIX + "' || lpad(i::text, 12, '0'))::uuid, 'plan-test-' || i, '" + AUTOMATION + "',"
                        + "   '" + WEBHOOK + "', '{}', '{}', 'SENDING', 1, now() + interval '1 minute'"
                        + "   FROM generate_series(1, " + DELIVERIES + ") i").execute()
                        // PostgreSQL plans a prepared statement's first five executions for their parameters, then may keep a
                        // generic plan; plan_cache_mode makes each of the two happen at once.
                        .chain(() -> connection.preparedQuery("EXPLAIN (ANALYZE, FORMAT JSON) " + DeliveryStore.FINISH)
                                .execute(Tuple.of(finished(DELIVERIES / 2), new UUID[] {WEBHOOK})))
                        .eventually(() -> connection.query("ROLLBACK").execute()))
                .map(rows -> QueryPlans.plan(rows.iterator().next().getValue(0).toString()))
                .await().indefinitely();

        JsonNode update = QueryPlans.writing(plan, "Update", "deliveries").orElseThrow();
        assertEquals(1, QueryPlans.input(update).path("Actual Rows").asLong(), "deliveries moved on\n" + plan.toPrettyString());
        long visited = QueryPlans.rowsVisited(update);
        // A handful. Joined to the JSON array, taken for 100 rows, the deliveries were read whole by a hash join: 10,000.
        assertTrue(visited <= 20, "rows visited to move one delivery on among " + DELIVERIES + ": " + visited + "\n"
                + plan.toPrettyString());
    }

    /** One successful attempt of the {@code n}th delivery, as {@link DeliveryStore#finishAll} writes it. */
    private static JsonArray finished(int n) {
        return new JsonArray().add(new JsonObject()
                .put("delivery_id", DELIVERY_ID_PREFIX + "%012d".formatted(n))
                .put("attempt_number", 1).put("trigger", "SCHEDULED").put("started_at", "2026-11-29T12:00:00Z")
                .put("duration_ms", 3).put("status_code", 200).put("succeeded", true).put("next_status", "SUCCEEDED"));
    }
}
