package org.llmplatform.tracing.completions;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.completions.FakeInferenceGateway.Received;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeInferenceGateway.class)
class CompletionApiTest {

    @Test
    void createAnswersTheGatewaysCompletionAndRecordsTheCall() {
        TraceClient client = new TraceClient("complete");
        Map<String, Object> inputs = new HashMap<>(inputs("echo-model", "hello"));
        inputs.put("temperature", 0.5);
        inputs.put("max_tokens", null);
        String id = client.post("/completions/create", Map.of("project_id", client.project, "inputs", inputs))
                .statusCode(200)
                .body("response.choices[0].message.content", equalTo("echo: hello"))
                .body("response.usage.total_tokens", equalTo(5))
                .body("weave_call_id", notNullValue())
                .extract().path("weave_call_id");

        Received received = FakeInferenceGateway.lastFor(client.project);
        assertEquals("Bearer " + client.key, received.authorization());
        assertEquals("echo-model", received.body().getString("model"));
        assertFalse(received.body().getBoolean("stream"));
        assertFalse(received.body().containsKey("max_tokens"));

        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.op_name", equalTo("weave.completions_create"))
                .body("call.svc_user_id", equalTo(client.user))
                .body("call.inputs.model", equalTo("echo-model"))
                .body("call.inputs.temperature", equalTo(0.5f))
                .body("call.inputs.messages[0].content", equalTo("hello"))
                .body("call.output.choices[0].message.content", equalTo("echo: hello"))
                .body("call.summary.usage.echo-model.prompt_tokens", equalTo(3))
                .body("call.summary.usage.echo-model.total_tokens", equalTo(5))
                .body("call.summary.weave.status", equalTo("success"))
                .body("call.summary.weave.latency_ms", notNullValue())
                .body("call.exception", nullValue());
    }

    @Test
    void oneCompletionIsOneCallCountedOnceWhicheverWayItCameIn() {
        TraceClient client = new TraceClient("once");
        String created = client.post("/completions/create", Map.of("project_id", client.project,
                        "inputs", inputs(FakeInferenceGateway.METERED_MODEL, "hello")))
                .statusCode(200).extract().path("weave_call_id");
        Map<String, Object> quiet = new HashMap<>(inputs(FakeInferenceGateway.METERED_MODEL, "quietly"));
        quiet.put("stream_options", Map.of("include_usage", false));
        List<Map<String, Object>> lines = TraceClient.parseLines(
                stream(client, Map.of("project_id", client.project, "inputs", quiet)).then().statusCode(200).extract().asString());
        String streamed = (String) ((Map<?, ?>) lines.get(0).get("_meta")).get("weave_call_id");
        assertTrue(lines.stream().noneMatch(line -> line.get("usage") != null), "the caller turned the usage chunk off");
        client.post("/completions/create", Map.of("project_id", client.project,
                        "inputs", inputs(FakeInferenceGateway.METERED_MODEL, "untracked"), "track_llm_call", false))
                .statusCode(200).body("weave_call_id", nullValue());

        // Each usage record of a tracked completion is consumed when its call names the request; the records
        // are consumed in order (one project, one partition), so the untracked one's call comes last.
        for (String id : List.of(created, streamed)) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                    client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                            .body("call.attributes.inference_request_id", notNullValue()));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> client.query(Map.of()).size() >= 3);

        List<Map<String, Object>> calls = client.query(Map.of());
        Map<String, Long> opNames = new HashMap<>();
        long totalTokens = 0;
        long requests = 0;
        for (Map<String, Object> call : calls) {
            opNames.merge((String) call.get("op_name"), 1L, Long::sum);
            Map<?, ?> usage = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) call.get("summary")).get("usage"))
                    .get(FakeInferenceGateway.METERED_MODEL);
            totalTokens += ((Number) usage.get("total_tokens")).longValue();
            requests += ((Number) usage.get("requests")).longValue();
        }
        assertEquals(Map.of("weave.completions_create", 2L, "inference.chat.completions", 1L), opNames, calls.toString());
        assertEquals(3 * 5, totalTokens);
        assertEquals(3, requests);
        assertEquals(java.util.Set.of(created, streamed), calls.stream()
                .filter(call -> call.get("op_name").equals("weave.completions_create"))
                .map(call -> (String) call.get("id")).collect(java.util.stream.Collectors.toSet()));
        client.post("/calls/query_stats", Map.of("project_id", client.project)).statusCode(200).body("count", equalTo(3));
    }

    @Test
    void anUntrackedCompletionRecordsNoCall() {
        TraceClient client = new TraceClient("untracked");
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", inputs("echo-model", "hi"),
                        "track_llm_call", false))
                .statusCode(200)
                .body("response.choices[0].message.content", equalTo("echo: hi"))
                .body("weave_call_id", nullValue());
        assertTrue(client.query(Map.of()).isEmpty());
    }

    @Test
    void aValidationErrorOfTheGatewayIsAnsweredInBandAndRecorded() {
        TraceClient client = new TraceClient("invalid");
        String id = client.post("/completions/create",
                        Map.of("project_id", client.project, "inputs", inputs("invalid-model", "hi")))
                .statusCode(200)
                .body("response.error", equalTo("body.temperature: Input should be greater than or equal to 0"))
                .extract().path("weave_call_id");
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.exception", equalTo("body.temperature: Input should be greater than or equal to 0"))
                .body("call.summary.weave.status", equalTo("error"));
    }

    @Test
    void anUpstreamFailureIsAnsweredInBand() {
        TraceClient client = new TraceClient("broken");
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", inputs("broken-model", "hi"),
                        "track_llm_call", false))
                .statusCode(200)
                .body("response.error", equalTo("The upstream server failed"))
                .body("weave_call_id", nullValue());
    }

    @Test
    void aTrackedStreamStartsWithTheCallIdAndRecordsTheAggregatedOutput() {
        TraceClient client = new TraceClient("stream");
        Response response = stream(client, Map.of("project_id", client.project, "inputs", inputs("echo-model", "stream me")));
        assertEquals(200, response.statusCode());
        assertTrue(response.contentType().startsWith("application/jsonl"));
        List<Map<String, Object>> lines = TraceClient.parseLines(response.asString());
        String id = (String) ((Map<?, ?>) lines.get(0).get("_meta")).get("weave_call_id");
        assertNotNull(id);
        StringBuilder content = new StringBuilder();
        for (Map<String, Object> chunk : lines.subList(1, lines.size())) {
            assertEquals("chat.completion.chunk", chunk.get("object"));
            for (Object choice : (List<?>) chunk.get("choices")) {
                Object text = ((Map<?, ?>) ((Map<?, ?>) choice).get("delta")).get("content");
                content.append(text == null ? "" : text);
            }
        }
        assertEquals("echo: stream me", content.toString());
        assertEquals(Map.of("prompt_tokens", 3, "completion_tokens", 2, "total_tokens", 5),
                lines.get(lines.size() - 1).get("usage"));

        Received received = FakeInferenceGateway.lastFor(client.project);
        assertTrue(received.body().getBoolean("stream"));
        assertTrue(received.body().getJsonObject("stream_options").getBoolean("include_usage"));

        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.op_name", equalTo("weave.completions_create"))
                .body("call.output.object", equalTo("chat.completion"))
                .body("call.output.choices[0].message.role", equalTo("assistant"))
                .body("call.output.choices[0].message.content", equalTo("echo: stream me"))
                .body("call.output.choices[0].finish_reason", equalTo("stop"))
                .body("call.summary.usage.echo-model.completion_tokens", equalTo(2))
                .body("call.summary.weave.status", equalTo("success"));
    }

    @Test
    void anUntrackedStreamIsOnlyTheChunks() {
        TraceClient client = new TraceClient("ustream");
        Response response = stream(client, Map.of("project_id", client.project, "inputs", inputs("echo-model", "x"),
                "track_llm_call", false));
        List<Map<String, Object>> lines = TraceClient.parseLines(response.asString());
        assertFalse(lines.isEmpty());
        lines.forEach(line -> assertFalse(line.containsKey("_meta")));
        assertEquals("chat.completion.chunk", lines.get(0).get("object"));
        assertTrue(client.query(Map.of()).isEmpty());
    }

    @Test
    void aStreamTheGatewayRefusesIsOneErrorLine() {
        TraceClient client = new TraceClient("sbroken");
        Response response = stream(client, Map.of("project_id", client.project, "inputs", inputs("broken-model", "x"),
                "track_llm_call", false));
        assertEquals(200, response.statusCode());
        assertEquals(List.of(Map.of("error", "The upstream server failed")), TraceClient.parseLines(response.asString()));
    }

    @Test
    void anInBandStreamErrorIsPassedOnAndRecordedAsTheException() {
        TraceClient client = new TraceClient("midstream");
        List<Map<String, Object>> lines = TraceClient.parseLines(stream(client,
                Map.of("project_id", client.project, "inputs", inputs("midstream-error", "x"))).asString());
        String id = (String) ((Map<?, ?>) lines.get(0).get("_meta")).get("weave_call_id");
        assertTrue(lines.get(lines.size() - 1).containsKey("error"));
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.exception", equalTo("engine died"))
                .body("call.output.choices[0].message.content", equalTo("partial"))
                .body("call.summary.weave.status", equalTo("error"));
    }

    @Test
    void streamedToolCallArgumentsAreJoinedInTheRecordedOutput() {
        TraceClient client = new TraceClient("tools");
        List<Map<String, Object>> lines = TraceClient.parseLines(stream(client,
                Map.of("project_id", client.project, "inputs", inputs("tool-model", "weather?"))).asString());
        String id = (String) ((Map<?, ?>) lines.get(0).get("_meta")).get("weave_call_id");
        client.post("/call/read", Map.of("project_id", client.project, "id", id)).statusCode(200)
                .body("call.output.choices[0].message.tool_calls[0].id", equalTo("call_1"))
                .body("call.output.choices[0].message.tool_calls[0].function.name", equalTo("get_weather"))
                .body("call.output.choices[0].message.tool_calls[0].function.arguments", equalTo("{\"city\":\"Paris\"}"))
                .body("call.output.choices[0].finish_reason", equalTo("tool_calls"));
    }

    @Test
    void aRequestWithoutAModelIsA422NamingIt() {
        TraceClient client = new TraceClient("nomodel");
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", Map.of("messages", List.of())))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "inputs", "model")));
        client.post("/completions/create_stream", Map.of("project_id", client.project, "inputs", Map.of("model", 5)))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "inputs", "model")));
    }

    @Test
    void malformedEnvelopesAre422() {
        TraceClient client = new TraceClient("badenv");
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", "not an object"))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "inputs")));
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", inputs("echo-model", "x"),
                "surprise", 1)).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "surprise")));
        client.post("/completions/create", Map.of("inputs", inputs("echo-model", "x")))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "project_id")));
    }

    @Test
    void aStoredPromptIsRefusedInBand() {
        TraceClient client = new TraceClient("prompt");
        Map<String, Object> inputs = new HashMap<>(inputs("echo-model", "x"));
        inputs.put("prompt", "weave:///e/p/object/greeting:latest");
        client.post("/completions/create", Map.of("project_id", client.project, "inputs", inputs)).statusCode(200)
                .body("response.error", notNullValue());
    }

    @Test
    void callersNeedAValidKeyForTheirOwnProject() {
        Map<String, Object> body = Map.of("project_id", "someone/p", "inputs", inputs("echo-model", "x"));
        given().contentType(ContentType.JSON).body(body).post("/completions/create").then().statusCode(401)
                .body("reason", notNullValue());
        given().header("Authorization", "Bearer no-such-key").contentType(ContentType.JSON).body(body)
                .post("/completions/create_stream").then().statusCode(401).body("reason", notNullValue());

        String member = TestIdentities.unique("member");
        TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, member);
        TraceClient outsider = new TraceClient("outsider");
        outsider.post("/completions/create", Map.of("project_id", team + "/p", "inputs", inputs("echo-model", "x")))
                .statusCode(403).body("reason", notNullValue());
    }

    @Test
    void basicAuthIsForwardedAsTheCallersBearerKey() {
        TraceClient client = new TraceClient("basic");
        String basic = Base64.getEncoder().encodeToString(("api:" + client.key).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Basic " + basic).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "inputs", inputs("echo-model", "x"), "track_llm_call", false))
                .post("/completions/create").then().statusCode(200);
        assertEquals("Bearer " + client.key, FakeInferenceGateway.lastFor(client.project).authorization());
    }

    @Test
    void aRevokedKeyIsRefused() {
        TraceClient client = new TraceClient("revoked");
        Map<String, Object> body = Map.of("project_id", client.project, "inputs", inputs("echo-model", "x"),
                "track_llm_call", false);
        client.post("/completions/create", body).statusCode(200);
        TestIdentities.revoke(client.key);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> client.post("/completions/create", body).statusCode(401));
    }

    private static Response stream(TraceClient client, Map<String, Object> body) {
        RequestSpecification request = given().header("Authorization", "Bearer " + client.key)
                .contentType(ContentType.JSON).body(body);
        return request.post("/completions/create_stream");
    }

    private static Map<String, Object> inputs(String model, String message) {
        List<Object> messages = new ArrayList<>();
        messages.add(Map.of("role", "user", "content", message));
        return Map.of("model", model, "messages", messages);
    }
}
