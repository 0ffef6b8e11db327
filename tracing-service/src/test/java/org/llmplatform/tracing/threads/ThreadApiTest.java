package org.llmplatform.tracing.threads;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.calls.CallQueryApiTest;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ThreadApiTest {

    @Inject
    Pool pool;

    private TraceClient client;

    /** t1: turns of 2 s and 1 s plus a running one and a non-turn child; t2: one 8 s turn; t3: only running. */
    @BeforeEach
    void threeThreads() {
        client = new TraceClient("threads");
        client.write(List.of(turn("t1a", "t1", 1), turn("t1b", "t1", 4), turn("t1c", "t1", 6), child("t1x", "t1a", "t1"),
                        turn("t2a", "t2", 2), turn("t3a", "t3", 3), turn("t2gone", "t2", 1)),
                List.of(client.end("t1a", at(3)), client.end("t1b", at(5)), client.end("t1x", at(9)),
                        client.end("t2a", at(10)), client.end("t2gone", at(11))));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("t2gone"))).statusCode(200);
    }

    @Test
    void eachThreadAggregatesItsTurns() {
        List<Map<String, Object>> threads = threads(Map.of());
        assertEquals(List.of("t2", "t1"), threads.stream().map(thread -> thread.get("thread_id")).toList());
        Map<String, Object> t1 = threads.get(1);
        assertEquals(3, t1.get("turn_count"));
        assertEquals(at(1), t1.get("start_time"));
        assertEquals(at(5), t1.get("last_updated"));
        assertEquals("t1a", t1.get("first_turn_id"));
        assertEquals("t1b", t1.get("last_turn_id"));
        assertEquals(1500.0, ((Number) t1.get("p50_turn_duration_ms")).doubleValue(), 1e-6);
        assertEquals(1990.0, ((Number) t1.get("p99_turn_duration_ms")).doubleValue(), 1e-6);
        Map<String, Object> t2 = threads.get(0);
        assertEquals(1, t2.get("turn_count"));
        assertEquals(8000.0, ((Number) t2.get("p50_turn_duration_ms")).doubleValue(), 1e-6);
        assertEquals(8000.0, ((Number) t2.get("p99_turn_duration_ms")).doubleValue(), 1e-6);
    }

    @Test
    void filtersSortingAndPagingApply() {
        assertEquals(List.of("t1"), ids(Map.of("filter", Map.of("thread_ids", List.of("t1")))));
        List<Map<String, Object>> after = threads(Map.of("filter", Map.of("after_datetime", at(3))));
        assertEquals(List.of("t1"), after.stream().map(thread -> thread.get("thread_id")).toList());
        assertEquals(2, after.get(0).get("turn_count"));
        assertEquals(List.of("t2"), ids(Map.of("filter", Map.of("before_datetime", at(3)))).subList(0, 1));
        assertEquals(List.of("t1", "t2"), ids(Map.of("sort_by", List.of(Map.of("field", "turn_count", "direction", "desc")))));
        assertEquals(List.of("t1"), ids(Map.of("limit", 1, "offset", 1)));
        client.post("/threads/stream_query", body(Map.of("sort_by", List.of(Map.of("field", "nope", "direction", "asc")))))
                .statusCode(400).body("reason", equalTo("Unsupported sort field: nope"));
        client.post("/threads/stream_query", body(Map.of("filter", Map.of("other", 1)))).statusCode(422);
        new TraceClient("stranger").post("/threads/stream_query", body(Map.of())).statusCode(403);
    }

    /**
     * The threads list without a time range is cut from the thread summaries (V26); with one, from the turns. After
     * writes of every kind the two agree: turns added by calls/complete (concurrently, and resent), an end written
     * later, an end before its start, a thread id given late, a soft delete and a deleted row.
     */
    @Test
    void theSummariesAnswerAsTheTurnsDo() throws Exception {
        List<Map<String, Object>> batches = new ArrayList<>();
        for (int writer = 0; writer < 4; writer++) {
            List<Map<String, Object>> turns = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String id = "w" + writer + "-" + i;
                turns.add(complete(id, writer % 2 == 0 ? "t4" : "t1", 20 + i, 21 + i + writer));
            }
            batches.add(Map.of("batch", turns));
        }
        client.postTwiceAtOnce("/v2/" + client.project + "/calls/complete", batches);
        client.write(List.of(), List.of(client.end("t3a", at(40))));
        client.write(List.of(), List.of(client.end("t5a", at(44))));
        client.write(List.of(turn("t5a", "t5", 42)), List.of());
        Map<String, Object> late = client.start("t6a", "chat", at(30));
        late.put("turn_id", "t6a");
        client.write(List.of(late), List.of(client.end("t6a", at(31))));
        Map<String, Object> joined = turn("t6a", "t6", 30);
        client.write(List.of(joined), List.of());
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("w0-4"))).statusCode(200);
        pool.preparedQuery("DELETE FROM tracing.calls WHERE project_id = $1 AND id = $2")
                .execute(Tuple.of(client.project, "w1-0")).await().indefinitely();

        Map<String, Object> everyTurn = Map.of("after_datetime", "2000-01-01T00:00:00Z");
        List<Map<String, Object>> summarised = threads(Map.of());
        assertEquals(threads(Map.of("filter", everyTurn)), summarised);
        assertEquals(List.of("t5", "t3", "t6", "t1", "t4", "t2"), summarised.stream().map(thread -> thread.get("thread_id")).toList());
        assertEquals(List.of(3 + 10 - 1, 10 - 1, 1, 1, 1, 1), summarised.stream()
                .map(thread -> ((Number) thread.get("turn_count")).intValue()).sorted(Comparator.reverseOrder()).toList());
        for (String field : List.of("turn_count", "start_time", "last_updated", "thread_id")) {
            for (String direction : List.of("asc", "desc")) {
                List<Map<String, String>> sort = List.of(Map.of("field", field, "direction", direction));
                assertEquals(threads(Map.of("filter", everyTurn, "sort_by", sort, "limit", 3, "offset", 1)),
                        threads(Map.of("sort_by", sort, "limit", 3, "offset", 1)), field + " " + direction);
            }
        }
        assertEquals(threads(Map.of("filter", Map.of("after_datetime", "2000-01-01T00:00:00Z", "thread_ids", List.of("t1", "t6")))),
                threads(Map.of("filter", Map.of("thread_ids", List.of("t1", "t6")))));
    }

    private Map<String, Object> complete(String id, String thread, int startSecond, int endSecond) {
        Map<String, Object> call = turn(id, thread, startSecond);
        call.put("ended_at", at(endSecond));
        call.put("summary", Map.of());
        return call;
    }

    private List<String> ids(Map<String, Object> extra) {
        return threads(extra).stream().map(thread -> (String) thread.get("thread_id")).toList();
    }

    private List<Map<String, Object>> threads(Map<String, Object> extra) {
        Response response = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(body(extra)).post("/threads/stream_query");
        assertEquals(200, response.statusCode(), response.asString());
        assertEquals("application/jsonl", response.contentType());
        return TraceClient.parseLines(response.asString());
    }

    private Map<String, Object> body(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        return body;
    }

    private Map<String, Object> turn(String id, String thread, int second) {
        Map<String, Object> start = client.start(id, "chat", at(second));
        start.put("thread_id", thread);
        start.put("turn_id", id);
        return start;
    }

    private Map<String, Object> child(String id, String turn, String thread) {
        Map<String, Object> start = client.start(id, "tool", at(2));
        start.put("thread_id", thread);
        start.put("turn_id", turn);
        start.put("parent_id", turn);
        return start;
    }

    private static String at(int second) {
        return CallQueryApiTest.at(second);
    }
}
