package org.llmplatform.inference.usage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * A usage record carries the completion's id, its request and its answer (docs/inference-gateway.md#projects-and-usage),
 * so the tracing-service can record a completion no client traced and recognise one a client did; a request the
 * gateway refused is counted as an errored request of the project it names.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class UsageRecordContentTest {

    private static final String SHORT = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3");
    private static final String SHORT_STREAM = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3,\"stream\":true");

    @Test
    void theRecordOfACompletionCarriesItsIdRequestAndAnswer() {
        Callers caller = Callers.fresh("answered");
        String requestId = TestIdentities.unique("req");
        JsonPath answer = caller.request().header("X-Request-Id", requestId).body(SHORT).post("/v1/chat/completions")
                .then().statusCode(200).extract().jsonPath();

        JsonNode usage = UsageTopic.awaitRecord(caller.user + "/inference", "chatcmpl-" + requestId);
        assertEquals(answer.getString("id"), usage.path("response_id").asText(), usage.toString());
        assertEquals("Once upon a time", usage.path("request").path("messages").path(0).path("content").asText());
        assertEquals(0, usage.path("request").path("temperature").asInt(-1));
        assertEquals(answer.getString("id"), usage.path("response").path("id").asText());
        assertEquals(answer.getString("choices[0].message.content"),
                usage.path("response").path("choices").path(0).path("message").path("content").asText());
        assertEquals(answer.getInt("usage.total_tokens"), usage.path("response").path("usage").path("total_tokens").asInt());
    }

    @Test
    void theRecordOfAStreamCarriesTheAnswerItsChunksAddUpTo() {
        Callers caller = Callers.fresh("streamed");
        String requestId = TestIdentities.unique("req");
        String events = caller.request().header("X-Request-Id", requestId).body(SHORT_STREAM).post("/v1/chat/completions")
                .then().statusCode(200).extract().asString();
        StringBuilder text = new StringBuilder();
        String id = null;
        for (String line : events.split("\n")) {
            if (line.startsWith("data: {")) {
                JsonPath chunk = JsonPath.from(line.substring("data: ".length()));
                id = chunk.getString("id");
                String delta = chunk.getString("choices[0].delta.content");
                text.append(delta == null ? "" : delta);
            }
        }

        JsonNode usage = UsageTopic.awaitRecord(caller.user + "/inference", "chatcmpl-" + requestId);
        assertEquals(id, usage.path("response_id").asText(), usage.toString());
        assertEquals(text.toString(), usage.path("response").path("choices").path(0).path("message").path("content").asText());
        assertEquals(UsageRecord.SUCCESS, usage.path("status").asText());
    }

    @Test
    void refusedRequestsAreErrorsOfTheProjectTheyName() {
        Callers caller = Callers.fresh("refused");
        String project = caller.user + "/app";
        refusedRequest(caller, project, "{\"model\":\"" + Callers.MODEL + "\"}").then().statusCode(422);
        refusedRequest(caller, project, Callers.onceUponATime("").replace(Callers.MODEL, "no-such-model")).then()
                .statusCode(404);
        caller.request().header("Compat-Project", project).body(SHORT).post("/v1/chat/completions").then().statusCode(200);

        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                given().header("Authorization", "Bearer " + caller.key).queryParam("project", project).get("/v1/usage")
                        .then().statusCode(200)
                        .body("data.find { it.model == '" + Callers.MODEL + "' }.requests", equalTo(2))
                        .body("data.find { it.model == '" + Callers.MODEL + "' }.errors", equalTo(1))
                        .body("data.find { it.model == 'no-such-model' }.errors", equalTo(1))
                        .body("data.find { it.model == 'no-such-model' }.total_tokens", equalTo(0)));
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        given().header("Authorization", "Bearer " + caller.key).queryParam("project", project).queryParam("from", today)
                .queryParam("to", today).get("/v1/usage/daily").then().statusCode(200)
                .body("data.findAll { it.day == '" + today + "' }.errors.sum()", equalTo(2));
    }

    @Test
    void aRequestForAProjectTheKeyMayNotUseIsNoProjectsError() {
        Callers caller = Callers.fresh("intruder");
        Callers owner = Callers.fresh("owner");
        String project = owner.user + "/app";
        refusedRequest(caller, project, SHORT).then().statusCode(403);
        owner.request().header("Compat-Project", project).body(SHORT).post("/v1/chat/completions").then().statusCode(200);

        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                given().header("Authorization", "Bearer " + owner.key).queryParam("project", project).get("/v1/usage")
                        .then().statusCode(200)
                        .body("data.requests.sum()", equalTo(1))
                        .body("data.errors.sum()", equalTo(0)));
    }

    private static Response refusedRequest(Callers caller, String project, String body) {
        return caller.request().header("Compat-Project", project).body(body).post("/v1/chat/completions");
    }
}
