package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code calls/op_names}: the distinct op names of a project's calls, published or not, at any depth. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallOpNamesApiTest {

    @Test
    void everyOpNameOfTheProjectsVisibleCallsIsListedOnceInByteOrder() {
        TraceClient client = new TraceClient("opnames");
        String adder = "weave:///" + client.project + "/op/adder:";
        Map<String, Object> root = client.start("root", adder + "d1", CallQueryApiTest.at(1));
        Map<String, Object> child = client.start("child", "openai.chat.completions.create", CallQueryApiTest.at(2));
        child.put("parent_id", "root");
        child.put("trace_id", "trace-root");
        List<Map<String, Object>> starts = new ArrayList<>(List.of(root, child,
                client.start("again", adder + "d1", CallQueryApiTest.at(3)),
                client.start("newer", adder + "d2", CallQueryApiTest.at(4)),
                client.start("Upper", "Inference.chat", CallQueryApiTest.at(5)),
                client.start("gone", "deleted_op", CallQueryApiTest.at(6))));
        client.write(starts, List.of(client.end("orphan-end-only", CallQueryApiTest.at(7))));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("gone"))).statusCode(200);
        TraceClient other = new TraceClient("opnamesother");
        other.write(List.of(other.start("x", "elsewhere", CallQueryApiTest.at(1))), List.of());

        List<String> names = opNames(client);
        assertEquals(List.of("Inference.chat", "openai.chat.completions.create", adder + "d1", adder + "d2"), names);
    }

    @Test
    void aProjectWithoutCallsHasNoOpNames() {
        TraceClient client = new TraceClient("opnamesnone");
        assertEquals(List.of(), opNames(client));
    }

    @Test
    void manyCallsOfFewOpsGiveFewNames() {
        TraceClient client = new TraceClient("opnamesmany");
        List<Map<String, Object>> starts = new ArrayList<>();
        IntStream.range(0, 600).forEach(i -> starts.add(client.start("c" + i, "op-" + (i % 3), CallQueryApiTest.at(i % 60))));
        client.write(starts, List.of());
        assertEquals(List.of("op-0", "op-1", "op-2"), opNames(client));
    }

    @Test
    void anotherUsersProjectIsRefusedAndAMissingProjectNamed() {
        TraceClient client = new TraceClient("opnamesowner");
        TraceClient stranger = new TraceClient("opnamesstranger");
        stranger.post("/calls/op_names", Map.of("project_id", client.project)).statusCode(403);
        client.post("/calls/op_names", Map.of()).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "project_id")));
        client.post("/calls/op_names", Map.of("project_id", client.project, "limit", 3)).statusCode(422);
    }

    @SuppressWarnings("unchecked")
    private static List<String> opNames(TraceClient client) {
        return (List<String>) client.post("/calls/op_names", Map.of("project_id", client.project)).statusCode(200)
                .extract().jsonPath().getMap("").get("op_names");
    }
}
