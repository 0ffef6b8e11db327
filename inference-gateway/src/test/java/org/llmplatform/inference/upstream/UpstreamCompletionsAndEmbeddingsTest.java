package org.llmplatform.inference.upstream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** Legacy completions and embeddings of an upstream's model go to the upstream's own endpoints, renamed and counted. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeVllmServer.class)
class UpstreamCompletionsAndEmbeddingsTest {

    private final String user = TestIdentities.unique("relay");
    private final String key = TestIdentities.userWithKey(user);

    private RequestSpecification request(String requestId) {
        return given().header("Authorization", "Bearer " + key).header("X-Request-Id", requestId)
                .contentType(ContentType.JSON);
    }

    @Test
    void aCompletionIsRelayedToTheUpstreamsCompletionsAndCounted() {
        String requestId = TestIdentities.unique("req");
        request(requestId).body("{\"model\":\"upstream-small\",\"prompt\":\"hi\",\"max_tokens\":2}")
                .post("/v1/completions").then().statusCode(200)
                .body("object", equalTo("text_completion"))
                .body("model", equalTo("upstream-small"))
                .body("choices[0].text", equalTo("Hello there"))
                .body("usage.total_tokens", equalTo(6));
        JsonNode record = UsageTopic.awaitRecord(user + "/inference", "cmpl-" + requestId);
        assertEquals(4, record.get("prompt_tokens").asInt());
        assertEquals(2, record.get("completion_tokens").asInt());
        assertEquals("upstream-small", record.get("model").asText());
    }

    @Test
    void aStreamedCompletionIsRelayedWithItsUsageOnlyWhenAskedFor() {
        String plain = request(TestIdentities.unique("req"))
                .body("{\"model\":\"upstream-small\",\"prompt\":\"hi\",\"stream\":true}").post("/v1/completions")
                .then().statusCode(200).extract().asString();
        assertTrue(plain.contains("\"text\":\" there\""), plain);
        assertFalse(plain.contains("vllm-small") || plain.contains("\"usage\""), plain);
        String requestId = TestIdentities.unique("req");
        String withUsage = request(requestId).body("{\"model\":\"upstream-small\",\"prompt\":\"hi\",\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}").post("/v1/completions").then().statusCode(200)
                .extract().asString();
        assertTrue(withUsage.contains("\"usage\":{\"prompt_tokens\":4"), withUsage);
        JsonNode record = UsageTopic.awaitRecord(user + "/inference", "cmpl-" + requestId);
        assertEquals("text_completion", record.at("/response/object").asText());
    }

    @Test
    void embeddingsAreRelayedToTheUpstreamsEmbeddingsAndCounted() {
        String requestId = TestIdentities.unique("req");
        request(requestId).body("{\"model\":\"upstream-small\",\"input\":[\"a\",\"b\"]}").post("/v1/embeddings")
                .then().statusCode(200)
                .body("model", equalTo("upstream-small"))
                .body("data.index", equalTo(java.util.List.of(0, 1)))
                .body("usage.prompt_tokens", equalTo(6));
        JsonNode record = UsageTopic.awaitRecord(user + "/inference", "embd-" + requestId);
        assertEquals(6, record.get("prompt_tokens").asInt());
        assertEquals(0, record.get("completion_tokens").asInt());
    }

    @Test
    void fieldsTheEngineRefusesAreLeftToTheUpstream() {
        request(TestIdentities.unique("req")).body("{\"model\":\"upstream-small\",\"prompt\":\"hi\",\"suffix\":\"!\"}")
                .post("/v1/completions").then().statusCode(200);
        request(TestIdentities.unique("req")).body("{\"model\":\"upstream-small\",\"input\":\"a\",\"dimensions\":2}")
                .post("/v1/embeddings").then().statusCode(200);
    }
}
