package org.llmplatform.tracing.retention;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallRetentionTest {

    @Inject
    CallRetentionJob job;

    @Inject
    Pool pool;

    @Test
    void aProjectKeepsItsCallsForEverUntilARetentionIsSetAndClearedAgain() {
        TraceClient alice = new TraceClient("retention-settings");
        alice.post("/project/ttl_settings/read", Map.of("project_id", alice.project)).statusCode(200)
                .body("retention_days", nullValue());

        alice.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", 30))
                .statusCode(200).body("retention_days", equalTo(30));
        alice.post("/project/ttl_settings/read", Map.of("project_id", alice.project)).statusCode(200)
                .body("retention_days", equalTo(30));

        Map<String, Object> clear = new HashMap<>();
        clear.put("project_id", alice.project);
        clear.put("retention_days", null);
        alice.post("/project/ttl_settings/update", clear).statusCode(200).body("retention_days", nullValue());
        alice.post("/project/ttl_settings/read", Map.of("project_id", alice.project)).statusCode(200)
                .body("retention_days", nullValue());
    }

    @Test
    void aRetentionOfLessThanADayOrNotANumberIsRefusedNamingTheField() {
        TraceClient alice = new TraceClient("retention-invalid");
        for (Object days : List.of(0, -3, 36_501)) {
            alice.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", days))
                    .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "retention_days")));
        }
        alice.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", "a week"))
                .statusCode(422);
        alice.post("/project/ttl_settings/update", Map.of("retention_days", 3)).statusCode(422);
        alice.post("/project/ttl_settings/read", Map.of("project_id", alice.project)).statusCode(200)
                .body("retention_days", nullValue());
    }

    @Test
    void anotherUsersProjectsRetentionCannotBeSet() {
        TraceClient alice = new TraceClient("retention-owner");
        TraceClient mallory = new TraceClient("retention-stranger");
        mallory.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", 1))
                .statusCode(403);
    }

    @Test
    void settingARetentionDeletesExactlyTheCallsOlderThanItWithTheirFeedbackAndNoOtherProjects() {
        TraceClient alice = new TraceClient("retention-job");
        TraceClient bob = new TraceClient("retention-kept");
        Instant now = Instant.now();
        // An old trace (a root and two children, 40 days old), a call just inside the 30 days and a recent one.
        alice.write(List.of(alice.start("old-root", "agent", at(now, 40, 0)),
                child(alice.start("old-child-1", "llm", at(now, 40, -1)), "old-root"),
                child(alice.start("old-child-2", "tool", at(now, 40, -2)), "old-root"),
                alice.start("just-kept", "agent", at(now, 30, -600)),
                alice.start("recent", "agent", at(now, 1, 0))),
                List.of(alice.end("old-root", at(now, 40, -5)), alice.end("recent", at(now, 1, -5))));
        bob.write(List.of(bob.start("bobs-old", "agent", at(now, 400, 0))), List.of());
        for (String call : List.of("old-root", "old-child-1", "recent")) {
            alice.post("/feedback/create", Map.of("project_id", alice.project, "weave_ref", ref(alice, call),
                    "feedback_type", "custom", "payload", Map.of("label", "good"))).statusCode(200);
        }

        alice.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", 30))
                .statusCode(200);

        // The update starts a round at once: 3 expired calls, a full batch of 2 and one of 1, after which it stops.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> alice.ids(Map.of()).size() == 2);
        assertEquals(List.of("just-kept", "recent"), startedOrder(alice));
        assertEquals(List.of("bobs-old"), bob.ids(Map.of()), "a project without a retention keeps its calls");
        alice.post("/feedback/query", Map.of("project_id", alice.project, "fields", List.of("weave_ref")))
                .statusCode(200).body("result.weave_ref", equalTo(List.of(ref(alice, "recent"))));
    }

    @Test
    void theJobDeletesInBatchesOfItsBatchSizeUntilABatchComesBackShort() {
        TraceClient alice = new TraceClient("retention-batches");
        alice.post("/project/ttl_settings/update", Map.of("project_id", alice.project, "retention_days", 30))
                .statusCode(200);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !job.busy());
        Instant now = Instant.now();
        // Calls written after the retention was set, already older than it (a backfill), and one inside it.
        List<Map<String, Object>> starts = new ArrayList<>();
        for (int day = 31; day <= 35; day++) {
            starts.add(alice.start("backfilled-" + day, "agent", at(now, day, 0)));
        }
        starts.add(alice.start("inside", "agent", at(now, 29, 0)));
        starts.forEach(start -> start.put("inputs", Map.of("topic", "searchable words")));
        alice.write(starts, List.of());

        List<Integer> batches = new ArrayList<>();
        int deleted;
        do {
            deleted = job.deleteBatch().await().atMost(Duration.ofSeconds(30));
            batches.add(deleted);
        } while (deleted != 0);

        assertEquals(List.of(2, 2, 1, 0), batches, "5 expired calls in batches of 2 (the test profile's batch size)");
        assertEquals(List.of("inside"), alice.ids(Map.of()));
        long traceWords = pool.preparedQuery("SELECT count(*) FROM tracing.call_search_terms WHERE project_id = $1")
                .execute(Tuple.of(alice.project)).await().indefinitely().iterator().next().getLong(0);
        assertEquals(1, traceWords, "the search words of the expired calls' traces went with them (migration V28)");
    }

    private static List<Object> startedOrder(TraceClient client) {
        return client.query(Map.of("sort_by", List.of(Map.of("field", "started_at", "direction", "asc")))).stream()
                .map(call -> call.get("id")).toList();
    }

    private static Map<String, Object> child(Map<String, Object> start, String parent) {
        start.put("trace_id", "trace-" + parent);
        start.put("parent_id", parent);
        return start;
    }

    private static String ref(TraceClient client, String call) {
        return "weave:///" + client.project + "/call/" + call;
    }

    /** {@code days} days and {@code seconds} seconds before {@code now}. */
    private static String at(Instant now, int days, int seconds) {
        return now.minus(Duration.ofDays(days)).minusSeconds(seconds).toString();
    }
}
