package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Filters and sorts of calls queries look through the object refs at {@code expand_columns} paths
 * (docs/tracing-service.md#calls-query), on stream_query, the hidden query and query_stats, whether or not the answer
 * shows the values expanded.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallQueryThroughRefsApiTest {

    private static final Map<String, Object> NAME_IS_GPT = eq("inputs.model.name", "gpt");

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("thruref");
    }

    @Test
    void aFilterBelowAnExpandedColumnComparesTheReferencedObjectsValue() {
        String gpt = publish("model", Map.of("name", "gpt", "temperature", 0.2));
        String claude = publish("model", Map.of("name", "claude", "temperature", 0.9));
        call("gpt-call", Map.of("model", gpt));
        call("claude-call", Map.of("model", claude));
        call("plain-call", Map.of("model", Map.of("name", "gpt-but-not-a-ref")));

        assertEquals(List.of("gpt-call"), ids(NAME_IS_GPT, List.of("inputs.model"), null));
        assertEquals(List.of("gpt-call"), ids(eq("inputs.model._ref", gpt), List.of("inputs.model"), null));
        assertEquals(List.of(), ids(NAME_IS_GPT, null, null));
        assertEquals(List.of("plain-call"), ids(eq("inputs.model.name", "gpt-but-not-a-ref"), List.of("inputs.model"), null));
        assertEquals(1, count(NAME_IS_GPT, List.of("inputs.model")));
        assertEquals(0, count(NAME_IS_GPT, null));
        client.post("/calls/query", withProject(body(NAME_IS_GPT, List.of("inputs.model"), null))).statusCode(200)
                .body("calls.id", equalTo(List.of("gpt-call")));
    }

    @Test
    void theAnswerShowsTheRefOrTheValueAsAskedWhateverItWasFilteredOn() {
        String gpt = publish("model", Map.of("name", "gpt"));
        call("gpt-call", Map.of("model", gpt));

        List<Map<String, Object>> unexpanded = client.query(body(NAME_IS_GPT, List.of("inputs.model"), false));
        assertEquals(List.of(Map.of("model", gpt)), unexpanded.stream().map(call -> call.get("inputs")).toList());
        List<Map<String, Object>> expanded = client.query(body(NAME_IS_GPT, List.of("inputs.model"), true));
        assertEquals(List.of(Map.of("model", Map.of("name", "gpt", "_ref", gpt))),
                expanded.stream().map(call -> call.get("inputs")).toList());
        client.post("/calls/query", withProject(body(NAME_IS_GPT, List.of("inputs.model"), false))).statusCode(200)
                .body("calls[0].inputs.model", equalTo(gpt));
    }

    @Test
    void aSortBelowAnExpandedColumnOrdersByTheReferencedValuesWithMissingOnesLast() {
        call("plain-call", Map.of("model", "not a ref"));
        call("cold-call", Map.of("model", publish("model", Map.of("temperature", 0.2))));
        call("hot-call", Map.of("model", publish("model", Map.of("temperature", 0.9))));
        call("warm-call", Map.of("model", publish("model", Map.of("temperature", 0.5))));

        Map<String, Object> hottestFirst = new HashMap<>(body(null, List.of("inputs.model"), false));
        hottestFirst.put("sort_by", List.of(Map.of("field", "inputs.model.temperature", "direction", "desc")));
        assertEquals(List.of("hot-call", "warm-call", "cold-call", "plain-call"), client.ids(hottestFirst));
        hottestFirst.put("return_expanded_column_values", true);
        client.post("/calls/query", withProject(hottestFirst)).statusCode(200)
                .body("calls.id", equalTo(List.of("hot-call", "warm-call", "cold-call", "plain-call")))
                .body("calls[0].inputs.model.temperature", equalTo(0.9f));

        Map<String, Object> coldestFirst = new HashMap<>(hottestFirst);
        coldestFirst.put("sort_by", List.of(Map.of("field", "inputs.model.temperature", "direction", "asc")));
        assertEquals(List.of("cold-call", "warm-call", "hot-call", "plain-call"), client.ids(coldestFirst));
    }

    @Test
    void nestedExpansionsAreFollowedShallowestFirst() {
        String hello = publish("prompt", Map.of("text", "hello"));
        String bye = publish("prompt", Map.of("text", "bye"));
        call("hello-call", Map.of("model", publish("model", Map.of("name", "gpt", "prompt", hello))));
        call("bye-call", Map.of("model", publish("model", Map.of("name", "gpt", "prompt", bye))));
        Map<String, Object> saysHello = eq("inputs.model.prompt.text", "hello");

        assertEquals(List.of("hello-call"), ids(saysHello, List.of("inputs.model.prompt", "inputs.model"), null));
        assertEquals(1, count(saysHello, List.of("inputs.model", "inputs.model.prompt")));
        assertEquals(List.of(), ids(saysHello, List.of("inputs.model"), null));
        assertEquals(List.of(), ids(saysHello, List.of("inputs.model.prompt"), null));

        Map<String, Object> byPrompt = new HashMap<>(body(null, List.of("inputs.model", "inputs.model.prompt"), false));
        byPrompt.put("sort_by", List.of(Map.of("field", "inputs.model.prompt.text", "direction", "asc")));
        assertEquals(List.of("bye-call", "hello-call"), client.ids(byPrompt));
    }

    @Test
    void refsThatAreNotLiveObjectsOfTheProjectReadAsMissingFields() {
        String gone = publish("gone", Map.of("name", "gpt"));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "gone")).statusCode(200);
        String live = publish("model", Map.of("name", "gpt"));
        String unknownDigest = live.substring(0, live.lastIndexOf(':') + 1) + "unknowndigest";
        TraceClient other = new TraceClient("thruref");
        String otherProjects = other.post("/obj/create", Map.of("obj", Map.of("project_id", other.project,
                "object_id", "model", "val", Map.of("name", "gpt")))).statusCode(200).extract().path("digest");
        call("deleted", Map.of("model", gone));
        call("unknown", Map.of("model", unknownDigest));
        call("table", Map.of("model", "weave:///" + client.project + "/table/" + "0".repeat(64)));
        call("foreign", Map.of("model", "weave:///" + other.project + "/object/model:" + otherProjects));
        call("live", Map.of("model", live));

        assertEquals(List.of("live"), ids(NAME_IS_GPT, List.of("inputs.model"), null));
        Map<String, Object> hasNoName = Map.of("$eq", List.of(Map.of("$getField", "inputs.model.name"), nullLiteral()));
        assertEquals(List.of("deleted", "foreign", "table", "unknown"),
                ids(hasNoName, List.of("inputs.model"), null).stream().sorted().toList());
    }

    private String publish(String objectId, Object val) {
        String digest = client.post("/obj/create", Map.of("obj", Map.of("project_id", client.project, "object_id", objectId,
                "val", val))).statusCode(200).extract().path("digest");
        return "weave:///" + client.project + "/object/" + objectId + ":" + digest;
    }

    private void call(String id, Map<String, Object> inputs) {
        Map<String, Object> start = client.start(id, "my_op", "2025-01-01T00:00:00Z");
        start.put("inputs", inputs);
        client.write(List.of(start), List.of());
    }

    private List<String> ids(Map<String, Object> expr, List<String> expandColumns, Boolean returnValues) {
        return client.ids(body(expr, expandColumns, returnValues));
    }

    private int count(Map<String, Object> expr, List<String> expandColumns) {
        Map<String, Object> body = new HashMap<>();
        body.put("query", Map.of("$expr", expr));
        if (expandColumns != null) {
            body.put("expand_columns", expandColumns);
        }
        return client.post("/calls/query_stats", withProject(body)).statusCode(200).extract().path("count");
    }

    private static Map<String, Object> body(Map<String, Object> expr, List<String> expandColumns, Boolean returnValues) {
        Map<String, Object> body = new HashMap<>();
        if (expr != null) {
            body.put("query", Map.of("$expr", expr));
        }
        if (expandColumns != null) {
            body.put("expand_columns", expandColumns);
        }
        if (returnValues != null) {
            body.put("return_expanded_column_values", returnValues);
        }
        return body;
    }

    private Map<String, Object> withProject(Map<String, Object> body) {
        Map<String, Object> withProject = new HashMap<>(body);
        withProject.put("project_id", client.project);
        return withProject;
    }

    /** {@code {"$literal": null}}: as the right side of {@code $eq} it asks for a missing value. */
    private static Map<String, Object> nullLiteral() {
        Map<String, Object> literal = new HashMap<>();
        literal.put("$literal", null);
        return literal;
    }

    private static Map<String, Object> eq(String field, Object literal) {
        return Map.of("$eq", List.of(Map.of("$getField", field), Map.of("$literal", literal)));
    }
}
