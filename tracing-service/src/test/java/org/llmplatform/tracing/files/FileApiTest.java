package org.llmplatform.tracing.files;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FileApiTest {

    private final TraceClient client = new TraceClient("files");

    @Test
    void theDigestIsWeavesBytesDigest() {
        upload("/file/create", client.project, "hello world".getBytes(StandardCharsets.UTF_8))
                .statusCode(200).body("digest", equalTo("uU0nuZNNPgilLlLX2n2rXsSE7XN6U4DukIj3rOLvzek"));
        upload("/file/create", client.project, new byte[0])
                .statusCode(200).body("digest", equalTo("47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU"));
        upload("/file/create", client.project, "print(1)\n".getBytes(StandardCharsets.UTF_8))
                .statusCode(200).body("digest", equalTo("zEIVUIj8pXMHWNtysqW8ozESqUHfqi1DCY7EIs5OohM"));
    }

    @Test
    void contentReturnsTheExactBytesUploaded() {
        byte[] every = new byte[256 * 40];
        for (int i = 0; i < every.length; i++) {
            every[i] = (byte) i;
        }
        String digest = upload("/file/create", client.project, every).statusCode(200).extract().path("digest");

        byte[] read = content("/file/content", digest).statusCode(200)
                .contentType("application/octet-stream").extract().asByteArray();

        assertArrayEquals(every, read);
    }

    @Test
    void uploadingTheSameBytesTwiceAnswersTheSameDigest() {
        byte[] bytes = "same bytes".getBytes(StandardCharsets.UTF_8);
        String first = upload("/file/create", client.project, bytes).statusCode(200).extract().path("digest");
        String second = upload("/files/create", client.project, bytes).statusCode(200).extract().path("digest");
        assertEquals(first, second);
        assertArrayEquals(bytes, content("/file/content", first).statusCode(200).extract().asByteArray());
    }

    @Test
    void thePluralAliasesServeTheSameFiles() {
        byte[] bytes = "through the aliases".getBytes(StandardCharsets.UTF_8);
        String digest = upload("/files/create", client.project, bytes).statusCode(200).extract().path("digest");
        assertArrayEquals(bytes, content("/files/content", digest).statusCode(200).extract().asByteArray());
    }

    @Test
    void aFileOfAnotherProjectIsNotFound() {
        TraceClient other = new TraceClient("files-other");
        String digest = upload("/file/create", other.project, "only in other".getBytes(StandardCharsets.UTF_8), other.key)
                .statusCode(200).extract().path("digest");

        content("/file/content", digest).statusCode(404).body("reason", equalTo("File " + digest + " not found"));
    }

    @Test
    void anUnknownDigestIsNotFound() {
        content("/file/content", "nosuchdigest").statusCode(404).body("reason", equalTo("File nosuchdigest not found"));
    }

    @Test
    void aFileOverTheLimitIsRefusedWith413() {
        byte[] tooBig = new byte[1024 * 1024 + 1];
        upload("/file/create", client.project, tooBig).statusCode(413)
                .body("reason", containsString("exceeds the limit of 1048576 bytes"));
        upload("/file/create", client.project, new byte[1024 * 1024]).statusCode(200);
    }

    @Test
    void missingPartsAreNamed() {
        given().header("Authorization", "Bearer " + client.key)
                .multiPart("file", "blob", "x".getBytes(StandardCharsets.UTF_8), "application/octet-stream")
                .post("/file/create").then().statusCode(422).body("detail[0].loc", equalTo(java.util.List.of("body", "project_id")));
        given().header("Authorization", "Bearer " + client.key).multiPart("project_id", client.project)
                .post("/file/create").then().statusCode(422).body("detail[0].loc", equalTo(java.util.List.of("body", "file")));
        client.post("/file/content", Map.of("project_id", client.project)).statusCode(422)
                .body("detail[0].loc", equalTo(java.util.List.of("body", "digest")));
    }

    @Test
    void aJsonBodyIsNotAnUpload() {
        client.post("/file/create", Map.of("project_id", client.project)).statusCode(415).body("reason", org.hamcrest.Matchers.notNullValue());
    }

    @Test
    void anUnknownKeyInTheContentRequestIsRefused() {
        client.post("/file/content", Map.of("project_id", client.project, "digest", "d", "extra", 1)).statusCode(422);
    }

    @Test
    void filesNeedAKeyAndAProjectOfTheCaller() {
        given().multiPart("project_id", client.project).multiPart("file", "blob", new byte[] {1}, "application/octet-stream")
                .post("/file/create").then().statusCode(401).body("reason", org.hamcrest.Matchers.notNullValue());
        String team = TestIdentities.unique("files-team");
        String member = TestIdentities.unique("files-member");
        TestIdentities.userWithKey(member);
        TestIdentities.team(team, member);
        upload("/file/create", team + "/p", new byte[] {1}).statusCode(403);
        String basic = java.util.Base64.getEncoder().encodeToString(("api:" + client.key).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Basic " + basic).multiPart("project_id", client.project)
                .multiPart("file", "blob", new byte[] {7}, "application/octet-stream").post("/file/create").then().statusCode(200);
    }

    private ValidatableResponse upload(String path, String project, byte[] bytes) {
        return upload(path, project, bytes, client.key);
    }

    private static ValidatableResponse upload(String path, String project, byte[] bytes, String key) {
        return given().header("Authorization", "Bearer " + key).multiPart("project_id", project)
                .multiPart("file", "blob", bytes, "application/octet-stream").post(path).then();
    }

    private ValidatableResponse content(String path, String digest) {
        return given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "digest", digest)).post(path).then();
    }
}
