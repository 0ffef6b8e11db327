package org.llmplatform.training.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.training.GatewayStandIn;

/**
 * ART's chat completions and model listing on the training base URL go to the inference-gateway as they came, and
 * its answers come back unchanged; this service's own authentication never decides them.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(GatewayStandIn.class)
class InferenceForwardingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TestHTTPResource("/")
    URL base;

    @Test
    void aChatCompletionReachesTheGatewayAsSentAndItsAnswerComesBackUnchanged() {
        String body = "{\"model\": \"wandb-artifact:///team/rl/agent:step3\",\n \"messages\": []}";
        given().header("Authorization", "Bearer a-key-only-the-gateway-judges")
                .header("Compat-Project", "team/rl")
                .header("Accept", "application/json")
                .header("X-Request-Id", "req-1")
                .contentType("application/json")
                .body(body)
                .post("/v1/chat/completions")
                .then().statusCode(418)
                .header("Retry-After", "7")
                .header("X-Request-Id", "req-1")
                .header("Content-Type", "application/json")
                .body("method", equalTo("POST"))
                .body("uri", equalTo("/v1/chat/completions"))
                .body("authorization", equalTo("Bearer a-key-only-the-gateway-judges"))
                .body("compat_project", equalTo("team/rl"))
                .body("content_type", containsString("application/json"))
                .body("accept", equalTo("application/json"))
                .body("body", equalTo(body));
    }

    @Test
    void withoutAKeyTheGatewayAnswersNotThisService() {
        given().contentType("application/json").body("{}")
                .post("/v1/chat/completions/")
                .then().statusCode(418)
                .body("uri", equalTo("/v1/chat/completions/"))
                .body("authorization", nullValue());
    }

    @Test
    void modelListingAndRetrievalAreForwardedWithPathAndQuery() {
        given().header("Authorization", "Bearer k").get("/v1/models?limit=2")
                .then().statusCode(418).body("method", equalTo("GET")).body("uri", equalTo("/v1/models?limit=2"));
    }

    /** rest-assured's HTTP client would collapse the {@code ///}, so the JDK's sends this one. */
    @Test
    void aModelIdIsForwardedExactlyAsWritten() throws Exception {
        String path = "/v1/models/wandb-artifact:///team/rl/agent:step3";
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base.toURI().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(418, response.statusCode());
        assertEquals(path, JSON.readTree(response.body()).get("uri").asText());
    }

    @Test
    void aStreamIsRelayedEventByEventAsTheGatewayWritesIt() throws Exception {
        String requestId = UUID.randomUUID().toString();
        HttpRequest request = HttpRequest.newBuilder(base.toURI().resolve("/v1/chat/completions"))
                .header("Content-Type", "application/json").header("X-Request-Id", requestId)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":true}")).build();
        HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElse(null));
        try (BufferedReader events = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            // The stand-in writes its second event only once asked: a relay that buffered would never show the first.
            assertEquals(GatewayStandIn.FIRST_EVENT, events.readLine());
            HTTP.send(HttpRequest.newBuilder(standIn().resolve("/release/" + requestId))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            List<String> rest = new ArrayList<>();
            for (String line = events.readLine(); line != null; line = events.readLine()) {
                rest.add(line);
            }
            assertEquals(List.of("", "data: {\"event\":2}", "", "data: [DONE]", ""), rest);
        }
    }

    @Test
    void aGatewayThatCannotBeReachedIsA502InOpenAisErrorShape() {
        given().header("Authorization", "Bearer k").get("/v1/models/hang-up")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error.code", equalTo("inference_gateway_unavailable"))
                .body("error.message", containsString("did not answer"));
    }

    @Test
    void theTrainingApiItselfStillNeedsAKey() {
        given().get("/v1/preview/base-models").then().statusCode(401);
    }

    private static URI standIn() {
        return URI.create(ConfigProvider.getConfig().getValue(GatewayStandIn.URL_PROPERTY, String.class));
    }
}
