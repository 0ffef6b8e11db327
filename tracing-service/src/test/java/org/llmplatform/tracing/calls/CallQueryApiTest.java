package org.llmplatform.tracing.calls;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
public class CallQueryApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("querier");
    }

    @Test
    void streamQueryAnswersJsonLinesTypedByTheAcceptHeader() {
        client.write(List.of(client.start("a", "op", at(1)), client.start("b", "op", at(2))), List.of());
        Map<String, Object> body = Map.of("project_id", client.project);
        Response plain = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(body).post("/calls/stream_query");
        assertEquals(200, plain.statusCode());
        assertEquals("application/jsonl", plain.contentType());
        String[] lines = plain.asString().split("\n", -1);
        assertEquals(3, lines.length);
        assertEquals("", lines[2]);
        assertEquals("a", TraceClient.parseLines(lines[0]).get(0).get("id"));

        Response asked = given().header("Authorization", "Bearer " + client.key).accept("application/x-ndjson")
                .contentType(ContentType.JSON).body(body).post("/calls/stream_query");
        assertEquals("application/x-ndjson", asked.contentType());

        Response empty = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "filter", Map.of("call_ids", List.of("none"))))
                .post("/calls/stream_query");
        assertEquals(200, empty.statusCode());
        assertEquals("", empty.asString());
    }

    @Test
    void aLongStreamCrossesManyCursorFetchesInOrder() {
        List<Map<String, Object>> starts = new ArrayList<>();
        IntStream.range(0, 1500).forEach(i -> starts.add(client.start(String.format("c%05d", i), "op", at(i % 60))));
        client.write(starts, List.of());
        List<String> ids = client.ids(Map.of("sort_by", List.of(Map.of("field", "id", "direction", "asc")),
                "columns", List.of("id")));
        assertEquals(1500, ids.size());
        assertEquals(IntStream.range(0, 1500).mapToObj(i -> String.format("c%05d", i)).toList(), ids);
    }

    @Test
    void theHiddenQueryEndpointWrapsTheCallsInAnObject() {
        client.write(List.of(client.start("a", "op", at(1))), List.of(client.end("a", at(3))));
        client.post("/calls/query", Map.of("project_id", client.project)).statusCode(200)
                .body("calls.size()", equalTo(1))
                .body("calls[0]", aMapWithSize(23))
                .body("calls[0].summary.weave.latency_ms", equalTo(2000));
    }

    @Test
    void orphanEndsAndDeletedCallsAreNeitherReturnedNorCounted() {
        client.write(List.of(client.start("kept", "op", at(1)), client.start("gone", "op", at(2))),
                List.of(client.end("orphan", at(3))));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("gone"))).statusCode(200);
        assertEquals(List.of("kept"), client.ids(Map.of()));
        client.post("/calls/query_stats", Map.of("project_id", client.project)).statusCode(200).body("count", equalTo(1));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "filter", Map.of("trace_roots_only", true)))
                .statusCode(200).body("count", equalTo(1));
    }

    @Test
    void theDefaultOrderIsStartThenIdAndTheIdBreaksTies() {
        client.write(List.of(client.start("c", "op", at(1)), client.start("b", "op", at(1)),
                client.start("a", "op", at(2))), List.of());
        assertEquals(List.of("b", "c", "a"), client.ids(Map.of()));
        assertEquals(List.of("a", "c", "b"), client.ids(sort("started_at", "desc")));
        assertEquals(List.of("a", "b", "c"), client.ids(sort("op_name", "desc")));
        assertEquals(List.of("a", "b", "c"), client.ids(Map.of("sort_by", List.of())));
        assertEquals(List.of("c", "b", "a"), client.ids(sort("id", "desc")));
    }

    @Test
    void limitAndOffsetPageTheOrderedCalls() {
        List<Map<String, Object>> starts = new ArrayList<>();
        IntStream.range(0, 5).forEach(i -> starts.add(client.start("c" + i, "op", at(i))));
        client.write(starts, List.of());
        assertEquals(List.of("c1", "c2"), client.ids(Map.of("limit", 2, "offset", 1)));
        assertEquals(List.of("c3", "c4"), client.ids(Map.of("offset", 3)));
        assertEquals(List.of(), client.ids(Map.of("limit", 0)));
        client.post("/calls/stream_query", Map.of("project_id", client.project, "limit", -1)).statusCode(400)
                .body("reason", equalTo("Limit must be a positive integer"));
        client.post("/calls/stream_query", Map.of("project_id", client.project, "offset", -1)).statusCode(400);
    }

    @Test
    void everyFilterMemberNarrowsTheCalls() {
        String adder = "weave:///" + client.project + "/op/adder:";
        String model = "weave:///" + client.project + "/object/model:v1";
        Map<String, Object> root = client.start("root", adder + "d1", at(1));
        root.put("inputs", Map.of("model", model));
        root.put("thread_id", "thread-1");
        root.put("turn_id", "root");
        root.put("svc_run_id", "run-1");
        Map<String, Object> child = client.start("child", adder + "d2", at(2));
        child.put("parent_id", "root");
        child.put("trace_id", "trace-root");
        Map<String, Object> other = client.start("other", "plain_op", at(3));
        Map<String, Object> otherEnd = client.end("other", at(4));
        otherEnd.put("output", List.of(model));
        client.write(List.of(root, child, other), List.of(otherEnd));

        assertEquals(List.of("root", "child"), ids(Map.of("op_names", List.of(adder + "*"))));
        assertEquals(List.of("child", "other"), ids(Map.of("op_names", List.of(adder + "d2", "plain_op"))));
        assertEquals(List.of(), ids(Map.of("op_names", List.of("weave:///" + client.project + "/op/add:*"))));
        assertEquals(List.of("root", "other"), ids(Map.of("trace_roots_only", true)));
        assertEquals(List.of("child"), ids(Map.of("parent_ids", List.of("root"))));
        assertEquals(List.of("root", "child"), ids(Map.of("trace_ids", List.of("trace-root"))));
        assertEquals(List.of("other"), ids(Map.of("call_ids", List.of("other", "nope"))));
        assertEquals(List.of("root"), ids(Map.of("thread_ids", List.of("thread-1"))));
        assertEquals(List.of("root"), ids(Map.of("turn_ids", List.of("root"))));
        assertEquals(List.of("root"), ids(Map.of("input_refs", List.of(model))));
        assertEquals(List.of("other"), ids(Map.of("output_refs", List.of(model))));
        assertEquals(List.of("root"), ids(Map.of("svc_run_ids", List.of("run-1"))));
        assertEquals(List.of("root", "child", "other"), ids(Map.of("wb_user_ids", List.of(client.user))));
        assertEquals(List.of(), ids(Map.of("svc_user_ids", List.of("someone-else"))));
        assertEquals(List.of("root", "child", "other"), ids(Map.of("op_names", List.of(), "trace_roots_only", false)));
    }

    @Test
    void filterListsAreLimitedAndStrict() {
        List<String> many = IntStream.range(0, 1001).mapToObj(i -> "op" + i).toList();
        client.post("/calls/stream_query", Map.of("project_id", client.project, "filter", Map.of("op_names", many)))
                .statusCode(400).body("reason", equalTo(
                        "Parameter: 'op_names' request length is greater than max length (1000). Actual length: 1001"));
        client.post("/calls/stream_query", Map.of("project_id", client.project, "filter", Map.of("ops", List.of())))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "filter", "ops")));
        client.post("/calls/stream_query", Map.of("project_id", client.project, "surprise", 1)).statusCode(422);
        client.post("/calls/stream_query", Map.of("project_id", client.project,
                "sort_by", List.of(Map.of("field", "id", "direction", "sideways")))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "sort_by", 0, "direction")));
    }

    @Test
    void columnsLimitWhatIsLoaded() {
        Map<String, Object> start = client.start("a", "op", at(1));
        start.put("inputs", Map.of("x", 1));
        start.put("attributes", Map.of("k", "v"));
        Map<String, Object> end = client.end("a", at(2));
        end.put("output", "done");
        client.write(List.of(start), List.of(end));

        Map<String, Object> call = client.query(Map.of("columns", List.of("inputs.x"))).get(0);
        assertEquals("a", call.get("id"));
        assertEquals("op", call.get("op_name"));
        assertEquals(Map.of("x", 1), call.get("inputs"));
        assertEquals(Map.of(), call.get("attributes"));
        assertNull(call.get("output"));
        assertNull(call.get("summary"));
        assertNull(call.get("ended_at"));

        Map<String, Object> withSummary = client.query(Map.of("columns", List.of("summary"))).get(0);
        assertEquals("success", weave(withSummary).get("status"));
        assertEquals(1000, weave(withSummary).get("latency_ms"));
    }

    @Test
    void queryStatsCountsCapsByLimitAndSumsTraceStorage() {
        Map<String, Object> child = client.start("child", "op", at(2));
        child.put("parent_id", "root");
        child.put("trace_id", "trace-root");
        client.write(List.of(client.start("root", "op", at(1)), child, client.start("solo", "op", at(3))), List.of());
        client.post("/calls/query_stats", Map.of("project_id", client.project)).statusCode(200)
                .body("count", equalTo(3));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "filter", Map.of("trace_roots_only", true)))
                .statusCode(200).body("count", equalTo(2));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "filter", Map.of("trace_roots_only", false)))
                .statusCode(200).body("count", equalTo(3));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "limit", 2)).body("count", equalTo(2));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "include_total_storage_size", true))
                .body("total_storage_size_bytes", greaterThan(0));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "filter", Map.of("call_ids", List.of("x")),
                "include_total_storage_size", true)).body("count", equalTo(0)).body("total_storage_size_bytes", equalTo(0));
        client.post("/calls/query_stats", Map.of("project_id", client.project, "limit", 0)).statusCode(400);
        client.post("/calls/query_stats", Map.of("project_id", client.project, "query", Map.of("$expr",
                Map.of("$eq", List.of(Map.of("$getField", "parent_id"), Map.of("$literal", "root"))))))
                .body("count", equalTo(1));
    }

    @Test
    void storageSizesComeOnlyWhenAskedAndTheTotalOnlyOnRoots() {
        Map<String, Object> child = client.start("child", "op", at(2));
        child.put("parent_id", "root");
        child.put("trace_id", "trace-root");
        client.write(List.of(client.start("root", "op", at(1)), child), List.of());
        List<Map<String, Object>> calls = client.query(Map.of("include_storage_size", true,
                "include_total_storage_size", true));
        assertEquals(true, ((Number) calls.get(0).get("storage_size_bytes")).longValue() > 0);
        assertEquals(true, ((Number) calls.get(0).get("total_storage_size_bytes")).longValue()
                > ((Number) calls.get(0).get("storage_size_bytes")).longValue());
        assertNull(calls.get(1).get("total_storage_size_bytes"));
        assertNull(client.query(Map.of()).get(0).get("storage_size_bytes"));
    }

    @Test
    void anotherTeamsProjectCannotBeQueried() {
        TraceClient stranger = new TraceClient("stranger");
        stranger.post("/calls/stream_query", Map.of("project_id", client.project)).statusCode(403)
                .body("reason", startsWith("You do not have access"));
        stranger.post("/calls/query_stats", Map.of("project_id", client.project)).statusCode(403);
        stranger.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("a"))).statusCode(403);
        given().contentType(ContentType.JSON).body(Map.of("project_id", client.project)).post("/calls/stream_query")
                .then().statusCode(401).body("reason", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void aCallWithoutEndHasNoLatency() {
        client.write(List.of(client.start("running", "op", at(1))), List.of());
        Map<String, Object> call = client.query(Map.of()).get(0);
        assertEquals("running", weave(call).get("status"));
        assertNull(weave(call).get("latency_ms"));
        assertNull(call.get("ended_at"));
    }

    @Test
    void readUsesTheSameShapeAsQueries() {
        client.write(List.of(client.start("a", "op", at(1))), List.of(client.end("a", at(2))));
        client.post("/call/read", Map.of("project_id", client.project, "id", "a")).body("call.summary",
                equalTo(client.query(Map.of()).get(0).get("summary")));
        client.post("/call/read", Map.of("project_id", client.project, "id", "b")).body("call", nullValue());
    }

    private List<String> ids(Map<String, Object> filter) {
        return client.ids(Map.of("filter", filter));
    }

    static Map<String, Object> sort(String field, String direction) {
        return Map.of("sort_by", List.of(Map.of("field", field, "direction", direction)));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> weave(Map<String, Object> call) {
        return (Map<String, Object>) ((Map<String, Object>) call.get("summary")).get("weave");
    }

    /** 2025-01-01T12:00:ssZ: one second per step. */
    public static String at(int second) {
        return String.format("2025-01-01T12:00:%02dZ", second);
    }
}
