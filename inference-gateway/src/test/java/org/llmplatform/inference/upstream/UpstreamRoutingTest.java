package org.llmplatform.inference.upstream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeVllmServer.class)
class UpstreamRoutingTest {

    private final String user = TestIdentities.unique("router");
    private final String key = TestIdentities.userWithKey(user);

    private Response chat(String model, String extraFields) {
        return given().header("Authorization", "Bearer " + key).header("X-Request-Id", TestIdentities.unique("req"))
                .contentType(ContentType.JSON)
                .body("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]"
                        + (extraFields.isEmpty() ? "" : "," + extraFields) + "}")
                .post("/v1/chat/completions");
    }

    @Test
    void aCompletionIsForwardedUnderTheUpstreamNameAndAnsweredUnderOurs() {
        chat("upstream-small", "").then().statusCode(200)
                .body("model", equalTo("upstream-small"))
                .body("choices[0].message.content", equalTo("Hello there"))
                .body("usage.total_tokens", equalTo(7));
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given()
                .header("Authorization", "Bearer " + key).queryParam("project", user + "/inference").get("/v1/usage")
                .then().statusCode(200).body("data[0].model", equalTo("upstream-small"))
                .body("data[0].prompt_tokens", equalTo(5)));
    }

    @Test
    void aStreamIsRelayedAndTheForcedUsageChunkRemovedWhenNotAskedFor() {
        String body = chat("upstream-small", "\"stream\":true").then().statusCode(200)
                .header("Content-Type", startsWith("text/event-stream")).extract().asString();
        assertTrue(body.contains("\"content\":\"Hello\""), body);
        assertTrue(body.contains("\"model\":\"upstream-small\""), body);
        assertFalse(body.contains("vllm-small"), "every chunk renamed to our model: " + body);
        assertFalse(body.contains("\"usage\""), body);
        assertTrue(body.endsWith("data: [DONE]\n\n"), body);
        String withUsage = chat("upstream-small", "\"stream\":true,\"stream_options\":{\"include_usage\":true}")
                .then().statusCode(200).extract().asString();
        assertTrue(withUsage.contains("\"usage\":{\"prompt_tokens\":5"), withUsage);
    }

    @Test
    void theCallTrackingAnUpstreamRequestIsInItsUsageRecord() {
        String requestId = TestIdentities.unique("req");
        String callId = java.util.UUID.randomUUID().toString();
        given().header("Authorization", "Bearer " + key).header("X-Request-Id", requestId)
                .header(UsageRecord.WEAVE_CALL_HEADER, callId).contentType(ContentType.JSON)
                .body("{\"model\":\"upstream-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .post("/v1/chat/completions").then().statusCode(200);
        JsonNode usage = UsageTopic.awaitRecord(user + "/inference", "chatcmpl-" + requestId);
        assertEquals(callId, usage.path("weave_call_id").asText(), usage.toString());
        assertEquals(5, usage.path("prompt_tokens").asInt(), usage.toString());
    }

    @Test
    void theUsageRecordOfAnUpstreamCompletionCarriesTheIdTheClientGotItsRequestAndItsAnswer() {
        String requestId = TestIdentities.unique("req");
        String body = "{\"model\":\"upstream-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        String id = given().header("Authorization", "Bearer " + key).header("X-Request-Id", requestId)
                .contentType(ContentType.JSON).body(body).post("/v1/chat/completions").then().statusCode(200)
                .extract().path("id");
        JsonNode usage = UsageTopic.awaitRecord(user + "/inference", "chatcmpl-" + requestId);
        assertEquals(id, usage.path("response_id").asText(), usage.toString());
        assertEquals("hi", usage.at("/request/messages/0/content").asText(), usage.toString());
        // the client's request, not what the upstream got (its own model name)
        assertEquals("upstream-small", usage.at("/request/model").asText(), usage.toString());
        assertEquals("Hello there", usage.at("/response/choices/0/message/content").asText(), usage.toString());
        assertEquals("upstream-small", usage.at("/response/model").asText(), usage.toString());

        String streamRequestId = TestIdentities.unique("req");
        String events = given().header("Authorization", "Bearer " + key).header("X-Request-Id", streamRequestId)
                .contentType(ContentType.JSON).body(body.replaceFirst("\\{", "{\"stream\":true,")).post("/v1/chat/completions")
                .then().statusCode(200).extract().asString();
        String streamedId = io.restassured.path.json.JsonPath.from(events.lines().filter(line -> line.startsWith("data: {"))
                .findFirst().orElseThrow().substring("data: ".length())).getString("id");
        JsonNode streamed = UsageTopic.awaitRecord(user + "/inference", "chatcmpl-" + streamRequestId);
        assertEquals(streamedId, streamed.path("response_id").asText(), streamed.toString());
        assertEquals(streamedId, streamed.at("/response/id").asText(), streamed.toString());
        assertEquals(5, streamed.at("/response/usage/prompt_tokens").asInt(), streamed.toString());
        // the usage chunk the gateway asked the upstream for is not the client's request
        assertTrue(streamed.at("/request/stream_options").isMissingNode(), streamed.toString());
    }

    @Test
    void a503IsRetriedBeforeAnythingIsSent() {
        chat("flaky", "").then().statusCode(200).body("choices[0].message.content", equalTo("Hello there"));
    }

    @Test
    void anUpstreamThatKeepsFailingIsA502() {
        chat("always-503", "").then().statusCode(502).body("error.message", containsString("answered 503"));
        chat("unreachable", "").then().statusCode(502).body("error.message", containsString("could not be reached"));
    }

    @Test
    void anUnreachableUpstreamFallsBack() {
        chat("primary-down", "").then().statusCode(200).body("choices[0].message.content", equalTo("Hello there"));
    }

    @Test
    void aSilentUpstreamIsA504() {
        chat("slow", "").then().statusCode(504).body("error.message", containsString("did not answer in time"));
    }

    @Test
    void anUpstreamRefusalIsPassedThrough() {
        chat("rejecting", "").then().statusCode(400)
                .body("error.message", equalTo("temperature must be non-negative, got -1.0."));
    }

    @Test
    void aTruncatedUpstreamStreamEndsWithAnInBandError() {
        String body = chat("truncated", "\"stream\":true").then().statusCode(200).extract().asString();
        assertTrue(body.contains("\"content\":\"Hello\""), body);
        assertTrue(body.contains("data: {\"error\":{\"message\":\"The upstream stream of model `truncated`"), body);
        assertTrue(body.endsWith("data: [DONE]\n\n"), body);
    }

    @Test
    void aClientThatLeavesMidStreamClosesTheUpstreamRequest() throws IOException {
        int leftBefore = FakeVllmServer.ENDLESS_STREAMS_LEFT.get();
        String body = "{\"model\":\"endless\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            BufferedReader reply = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("HTTP/1.1 200 OK", reply.readLine());
            String line;
            do {
                line = reply.readLine();
            } while (line != null && !line.contains("\"content\":\"more\""));
            assertTrue(line != null, "the stream ended before its first chunk");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> FakeVllmServer.ENDLESS_STREAMS_LEFT.get() > leftBefore);
    }

    @Test
    void theGatewaysOwnTimeIsReportedApartFromTheUpstreamsAsAHeaderAndAMetric() {
        long started = System.nanoTime();
        Response delayed = chat("delayed", "");
        double endToEndMs = (System.nanoTime() - started) / 1e6;
        delayed.then().statusCode(200).body("choices[0].message.content", equalTo("Hello there"));
        double overheadMs = Double.parseDouble(delayed.header(GatewayOverhead.HEADER));
        assertTrue(endToEndMs >= FakeVllmServer.DELAY_MS, "end to end " + endToEndMs);
        assertTrue(overheadMs >= 0 && overheadMs < endToEndMs - FakeVllmServer.DELAY_MS + 1,
                "overhead " + overheadMs + " ms of " + endToEndMs + " ms end to end");
        String streamed = chat("upstream-small", "\"stream\":true").then().statusCode(200)
                .extract().header(GatewayOverhead.HEADER);
        assertTrue(Double.parseDouble(streamed) >= 0, streamed);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith("gateway_overhead_duration_seconds_count{")
                    && line.contains("model=\"delayed\"") && line.contains("stream=\"false\"")), metrics);
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith("gateway_overhead_duration_seconds_count{")
                    && line.contains("model=\"upstream-small\"") && line.contains("stream=\"true\"")), metrics);
        });
    }

    @Test
    void upstreamModelsAreListed() {
        given().header("Authorization", "Bearer " + key).get("/v1/models/upstream-small").then().statusCode(200)
                .body("max_model_len", equalTo(4096)).body("root", equalTo("vllm-small"));
    }
}
