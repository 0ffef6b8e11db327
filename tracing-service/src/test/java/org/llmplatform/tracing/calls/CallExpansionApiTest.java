package org.llmplatform.tracing.calls;

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

/** Calls queries replace object refs at {@code expand_columns} paths by their values, and filter by refs. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallExpansionApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("expand");
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

    private Map<String, Object> inputsOf(String id, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("filter", Map.of("call_ids", List.of(id)));
        List<Map<String, Object>> calls = client.query(body);
        assertEquals(1, calls.size());
        @SuppressWarnings("unchecked")
        Map<String, Object> inputs = (Map<String, Object>) calls.get(0).get("inputs");
        return inputs;
    }

    @Test
    void anExpandedColumnHoldsTheObjectWithItsRef() {
        String model = publish("model", Map.of("name", "gpt", "temperature", 0.5));
        call("c1", Map.of("model", model, "n", 1));
        assertEquals(Map.of("model", Map.of("name", "gpt", "temperature", 0.5, "_ref", model), "n", 1),
                inputsOf("c1", Map.of("expand_columns", List.of("inputs.model"))));
        assertEquals(Map.of("model", model, "n", 1), inputsOf("c1", Map.of()));
        assertEquals(Map.of("model", model, "n", 1), inputsOf("c1", Map.of("expand_columns", List.of("inputs.model"),
                "return_expanded_column_values", false)));
    }

    @Test
    void columnsAreExpandedShallowestFirst() {
        String prompt = publish("prompt", Map.of("text", "hi"));
        String self = publish("self", Map.of("prompt", prompt, "_ref", "kept"));
        call("c1", Map.of("self", self));
        Map<String, Object> expanded = inputsOf("c1", Map.of("expand_columns", List.of("inputs.self.prompt", "inputs.self")));
        assertEquals(Map.of("self", Map.of("prompt", Map.of("text", "hi", "_ref", prompt), "_ref", "kept")), expanded);
        client.post("/calls/query", Map.of("project_id", client.project, "expand_columns", List.of("inputs.self")))
                .statusCode(200).body("calls[0].inputs.self._ref", org.hamcrest.Matchers.equalTo("kept"));
    }

    @Test
    void refsThatAreNotLiveObjectsStayAsTheyAre() {
        String gone = publish("gone", Map.of("a", 1));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "gone")).statusCode(200);
        String table = "weave:///" + client.project + "/table/" + "0".repeat(64);
        String list = publish("list", List.of(1, 2));
        call("c1", Map.of("gone", gone, "table", table, "list", list));
        assertEquals(Map.of("gone", gone, "table", table, "list", List.of(1, 2)),
                inputsOf("c1", Map.of("expand_columns", List.of("inputs.gone", "inputs.table", "inputs.list", "output.x"))));
    }

    @Test
    void callsAreFilteredByTheRefsInTheirInputs() {
        String model = publish("model", Map.of("name", "gpt"));
        call("with", Map.of("model", model));
        call("without", Map.of("model", "plain"));
        assertEquals(List.of("with"), client.ids(Map.of("filter", Map.of("input_refs", List.of(model)))));
    }
}
