package org.llmplatform.inference.upstream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * What the Vert.x route of upstream models hands on to the resource (answered as for every model) and what it
 * answers itself, for an upstream's model.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeVllmServer.class)
class UpstreamChatRouteTest {

    private static final String CHAT = "{\"model\":\"upstream-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @TestHTTPResource("/v1/chat/completions")
    URI chatUrl;

    private final String user = TestIdentities.unique("route");
    private final String key = TestIdentities.userWithKey(user);

    private RequestSpecification caller() {
        return given().header("Authorization", "Bearer " + key);
    }

    @Test
    void everyWayOfSendingTheKeyIsAccepted() {
        String basic = Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Basic " + basic).contentType("application/json").body(CHAT)
                .post("/v1/chat/completions").then().statusCode(200).body("model", equalTo("upstream-small"));
        given().header("wandb-api-key", key).contentType("application/json; charset=utf-8").body(CHAT)
                .post("/v1/chat/completions").then().statusCode(200).body("model", equalTo("upstream-small"));
    }

    @Test
    void aRequestWithoutContentTypeIsReadAsJson() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(chatUrl)
                .header("Authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"model\":\"upstream-small\""), answer.body());
    }

    @Test
    void http2RequestsAreServedForEveryModel() throws Exception {
        HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (String model : List.of("upstream-small", "stories260K")) {
            HttpResponse<String> answer = http2.send(HttpRequest.newBuilder(chatUrl)
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                            + "\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, answer.version());
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("\"model\":\"" + model + "\""), answer.body());
        }
    }

    @Test
    void aChunkedBodyIsRelayedToo() throws Exception {
        HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> answer = http1.send(HttpRequest.newBuilder(chatUrl)
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        CHAT.getBytes(StandardCharsets.UTF_8)))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"model\":\"upstream-small\""), answer.body());
    }

    @Test
    void aMissingOrUnknownKeyIsA401() {
        given().contentType("application/json").body(CHAT).post("/v1/chat/completions").then().statusCode(401)
                .body("error.type", equalTo("authentication_error"))
                .body("error.message", equalTo("Missing API key: send 'Authorization: Bearer <key>'"));
        given().header("Authorization", "Bearer " + "0".repeat(40)).contentType("application/json").body(CHAT)
                .post("/v1/chat/completions").then().statusCode(401)
                .body("error.message", equalTo("Invalid API key"));
    }

    @Test
    void aBodyThatIsNotJsonIsA415() {
        caller().contentType("text/plain").body(CHAT).post("/v1/chat/completions").then().statusCode(415)
                .header("Content-Type", startsWith("application/json"))
                .body("error.message", equalTo("Unsupported Media Type"));
    }

    @Test
    void anInvalidOrEmptyBodyIsA422NamingTheField() {
        caller().contentType("application/json").body("{\"model\":\"upstream-small\"}").post("/v1/chat/completions")
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "messages")))
                .body("error.param", equalTo("messages"));
        caller().contentType("application/json").body("{\"model\":\"upstream-small\",").post("/v1/chat/completions")
                .then().statusCode(422).body("error.code", equalTo("json_invalid"));
        caller().contentType("application/json").body("").post("/v1/chat/completions")
                .then().statusCode(422).header("Content-Type", startsWith("application/json"));
    }

    @Test
    void aProjectOfAnotherEntityIsA403() {
        caller().header("Compat-Project", "someone-else/theirs").contentType("application/json").body(CHAT)
                .post("/v1/chat/completions").then().statusCode(403)
                .body("error.type", equalTo("permission_error"))
                .body("error.message", equalTo("You do not have access to entity 'someone-else'"));
    }

    @Test
    void aMalformedCallIdHeaderIsA422NamingTheHeader() {
        caller().header(UsageRecord.WEAVE_CALL_HEADER, "not a call id!").contentType("application/json").body(CHAT)
                .post("/v1/chat/completions").then().statusCode(422)
                .body("detail[0].loc", hasItems("header", UsageRecord.WEAVE_CALL_HEADER));
    }

    @Test
    void theCallersRequestIdIsKeptAndStreamsAreChunked() {
        caller().header("X-Request-Id", "my-request-1").contentType("application/json")
                .body("{\"model\":\"upstream-small\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .post("/v1/chat/completions").then().statusCode(200)
                .header("X-Request-Id", equalTo("my-request-1"))
                .header("Transfer-Encoding", equalTo("chunked"))
                .header("Content-Type", startsWith("text/event-stream"));
    }
}
