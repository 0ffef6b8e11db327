package org.llmplatform.tracing.files;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /files/query_stats}: the bytes of a project's files, as Weave's server sums them. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FileStatsApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("file-stats");
    }

    @Test
    void theTotalCountsEachFileOfTheProjectOnce() {
        stats(client).body("total_size_bytes", equalTo(0));
        upload(client, "hello");
        upload(client, "abc");
        upload(client, "hello");
        TraceClient other = new TraceClient("file-stats-other");
        upload(other, "x".repeat(100));
        stats(client).body("total_size_bytes", equalTo(8)).body("size()", equalTo(1));
        stats(other).body("total_size_bytes", equalTo(100));
    }

    @Test
    void aStrangersKeyIsRefusedAndABadBodyNamesTheField() {
        new TraceClient("file-stats-stranger").post("/files/query_stats", Map.of("project_id", client.project, "x", 1))
                .statusCode(403);
        client.post("/files/query_stats", Map.of("project_id", client.project, "digest", "d")).statusCode(422)
                .body("detail[0].loc", contains("body", "digest"));
        client.post("/files/query_stats", Map.of("project_id", "no-slash")).statusCode(400);
    }

    private static io.restassured.response.ValidatableResponse stats(TraceClient client) {
        return client.post("/files/query_stats", Map.of("project_id", client.project)).statusCode(200);
    }

    private static void upload(TraceClient client, String content) {
        given().header("Authorization", "Bearer " + client.key).multiPart("project_id", client.project)
                .multiPart("file", "blob", content.getBytes(StandardCharsets.UTF_8), "application/octet-stream")
                .post("/file/create").then().statusCode(200);
    }
}
