package org.llmplatform.tracing.calls;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** Batches written as one statement per round of repeated ids, and streams written many lines at a time. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class BatchedWritesAndStreamsTest {

    @Test
    void repeatedPartsInOneBatchMergeAsIfWrittenOneByOne() throws Exception {
        TraceClient client = new TraceClient("rounds");
        String ref = "weave:///" + client.project + "/object/model:abc";
        Map<String, Object> first = client.start("a", "op", CallQueryApiTest.at(1));
        first.put("inputs", Map.of("model", ref, "v", 1));
        first.put("display_name", "first");
        Map<String, Object> second = client.start("a", "op", CallQueryApiTest.at(2));
        second.put("inputs", Map.of("model", ref, "v", 2));
        second.put("display_name", "second");
        Map<String, Object> third = client.start("a", "other_op", CallQueryApiTest.at(3));
        Map<String, Object> end = client.end("a", CallQueryApiTest.at(4));
        end.put("output", Map.of("answer", 1));
        Map<String, Object> laterEnd = client.end("a", CallQueryApiTest.at(5));
        laterEnd.put("output", Map.of("answer", 2));
        laterEnd.put("exception", "too late");
        Map<String, Object> completeEnd = client.end("c", CallQueryApiTest.at(6));
        completeEnd.put("output", List.of(ref, ref));
        client.write(List.of(first, second, third, client.start("c", "op", CallQueryApiTest.at(1))),
                List.of(end, laterEnd, client.end("orphan", CallQueryApiTest.at(2)), completeEnd));

        client.post("/call/read", Map.of("project_id", client.project, "id", "a")).statusCode(200)
                .body("call.inputs.v", equalTo(1))
                .body("call.op_name", equalTo("op"))
                .body("call.started_at", equalTo(CallQueryApiTest.at(1)))
                .body("call.display_name", equalTo("second"))
                .body("call.ended_at", equalTo(CallQueryApiTest.at(4)))
                .body("call.output.answer", equalTo(1))
                .body("call.exception", equalTo("too late"));
        client.post("/call/read", Map.of("project_id", client.project, "id", "orphan")).statusCode(200)
                .body("call", nullValue());
        assertEquals(List.of(ref), refs(client.project, "a", "input_refs"));
        assertEquals(List.of(), refs(client.project, "a", "output_refs"));
        assertEquals(List.of(ref), refs(client.project, "c", "output_refs"));
        assertEquals(List.of(), refs(client.project, "c", "input_refs"));
    }

    @Test
    void aLongStreamIsOneCallPerLineInOrder() {
        TraceClient client = new TraceClient("longstream");
        List<Map<String, Object>> starts = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String id = String.format("call-%04d", i);
            starts.add(client.start(id, "op", CallQueryApiTest.at(1)));
            expected.add(id);
        }
        client.write(starts, List.of());

        String body = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project)).post("/calls/stream_query")
                .then().statusCode(200).extract().asString();
        assertTrue(body.endsWith("}\n"));
        List<String> lines = List.of(body.split("\n", -1)).subList(0, expected.size());
        lines.forEach(line -> assertFalse(line.isBlank()));
        assertEquals(expected.size() + 1, body.split("\n", -1).length);
        assertEquals(expected, client.ids(Map.of()));
        assertEquals(expected.subList(250, 520), client.ids(Map.of("offset", 250, "limit", 270)));
    }

    private static List<String> refs(String project, String id, String column) throws Exception {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement query = db.prepareStatement(
                     "SELECT " + column + " FROM tracing.calls WHERE project_id = ? AND id = ?")) {
            query.setString(1, project);
            query.setString(2, id);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next());
                return List.of((String[]) row.getArray(column).getArray());
            }
        }
    }
}
