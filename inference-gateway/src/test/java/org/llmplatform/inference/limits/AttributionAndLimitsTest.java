package org.llmplatform.inference.limits;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AttributionAndLimitsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String SHORT = Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3");

    @TestHTTPResource("/")
    URL root;

    private static io.restassured.response.Response chat(String authorization, String project, String body) {
        var request = given().header("Authorization", authorization).contentType(ContentType.JSON).body(body);
        if (project != null) {
            request.header("Compat-Project", project);
        }
        return request.post("/v1/chat/completions");
    }

    @Test
    void noKeyOrAnUnknownKeyIsA401() {
        given().contentType(ContentType.JSON).body(SHORT).post("/v1/chat/completions").then().statusCode(401);
        chat("Bearer sk-unknown-" + TestIdentities.unique("k"), null, SHORT).then().statusCode(401)
                .body("error.code", equalTo("invalid_api_key"));
    }

    @Test
    void aRevokedKeyIsRefused() {
        Callers caller = Callers.fresh("revoked");
        chat("Bearer " + caller.key, null, SHORT).then().statusCode(200);
        TestIdentities.revoke(caller.key);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> chat("Bearer " + caller.key, null, SHORT).then().statusCode(401));
    }

    @Test
    void bearerAndBasicAreBothAccepted() {
        Callers caller = Callers.fresh("basic");
        String basic = "Basic " + Base64.getEncoder().encodeToString(("api:" + caller.key).getBytes(StandardCharsets.UTF_8));
        chat(basic, null, SHORT).then().statusCode(200);
        chat("Bearer " + caller.key, null, SHORT).then().statusCode(200);
    }

    @Test
    void anotherTeamsProjectIsForbiddenUnderEitherHeader() {
        Callers outsider = Callers.fresh("outsider");
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, Callers.fresh("member").user);
        chat("Bearer " + outsider.key, team + "/chat", SHORT).then().statusCode(403)
                .body("error.type", equalTo("permission_error"));
        given().header("Authorization", "Bearer " + outsider.key).header("OpenAI-Project", team + "/chat")
                .contentType(ContentType.JSON).body(SHORT).post("/v1/chat/completions").then().statusCode(403);
    }

    @Test
    void everyFinishedRequestIsCountedInItsProjectsUsage() {
        Callers member = Callers.fresh("member");
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, member.user);
        String project = team + "/chat";
        chat("Bearer " + member.key, project, SHORT).then().statusCode(200);
        chat("Bearer " + member.key, project, Callers.onceUponATime("\"temperature\":0,\"max_tokens\":5,\"stream\":true"))
                .then().statusCode(200);
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> usage(member.key, project)
                .body("data[0].model", equalTo(Callers.MODEL))
                .body("data[0].requests", equalTo(2))
                .body("data[0].prompt_tokens", equalTo(14))
                .body("data[0].completion_tokens", equalTo(8)));
    }

    @Test
    void withoutAProjectHeaderUsageGoesToTheCallersInferenceProject() {
        Callers caller = Callers.fresh("solo");
        chat("Bearer " + caller.key, null, SHORT).then().statusCode(200);
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> usage(caller.key, caller.user + "/inference")
                .body("data[0].completion_tokens", equalTo(3)));
    }

    @Test
    void aProjectOverItsConcurrencyLimitGets429WithRetryAfter() throws Exception {
        Callers caller = Callers.fresh("busy");
        String project = caller.user + "/busy";
        String slow = Callers.onceUponATime("\"temperature\":1,\"n\":12,\"max_tokens\":480,\"ignore_eos\":true,\"stream\":true");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                held.add(openStream(caller.key, project, slow));
            }
            chat("Bearer " + caller.key, project, SHORT).then().statusCode(429)
                    .header("Retry-After", "1")
                    .body("error.message", equalTo("Concurrency limit reached for requests"))
                    .body("error.code", equalTo("rate_limit_exceeded"));
            chat("Bearer " + caller.key, caller.user + "/other", SHORT).then().statusCode(200);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> chat("Bearer " + caller.key, project, SHORT).then().statusCode(200));
    }

    /** Starts a streamed request on a raw socket and returns once its 200 status line arrived. */
    private Socket openStream(String key, String project, String body) throws Exception {
        Socket socket = new Socket(root.getHost(), root.getPort());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: " + root.getHost() + "\r\nAuthorization: Bearer " + key
                + "\r\nCompat-Project: " + project + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertTrue(status.startsWith("HTTP/1.1 200"), status);
        return socket;
    }

    private static io.restassured.response.ValidatableResponse usage(String key, String project) {
        return given().header("Authorization", "Bearer " + key).queryParam("project", project).get("/v1/usage")
                .then().statusCode(200);
    }
}
