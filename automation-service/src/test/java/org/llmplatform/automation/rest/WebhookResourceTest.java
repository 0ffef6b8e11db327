package org.llmplatform.automation.rest;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.automation.Api.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.Teams;
import org.llmplatform.automation.TestReceiver;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class WebhookResourceTest {

    private final TestReceiver receiver = new TestReceiver();
    private String team;
    private String adminKey;
    private String memberKey;

    @BeforeEach
    void createTeam() {
        String admin = TestIdentities.unique("admin");
        String member = TestIdentities.unique("member");
        adminKey = TestIdentities.userWithKey(admin);
        memberKey = TestIdentities.userWithKey(member);
        team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin, member);
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void aWebhookIsCreatedListedAndChanged() {
        Api.putSecret(adminKey, team, "TOKEN", "t0k3n");
        String id = Api.createWebhook(adminKey, team, "ci hook", receiver.url("/hook"), "TOKEN", null);
        as(memberKey).get("/webhooks/{id}", id).then().statusCode(200)
                .body("name", equalTo("ci hook")).body("access_token_secret", equalTo("TOKEN")).body("secret", nullValue())
                .body("enabled", equalTo(true));
        as(memberKey).queryParam("entity", team).get("/webhooks").then().statusCode(200).body("data.id", equalTo(List.of(id)));
        as(adminKey).body(Map.of("name", "renamed", "access_token_secret", "")).put("/webhooks/{id}", id)
                .then().statusCode(200).body("name", equalTo("renamed")).body("access_token_secret", nullValue());
        as(memberKey).body(Map.of("name", "mine")).put("/webhooks/{id}", id).then().statusCode(403);
        String outsider = TestIdentities.userWithKey(TestIdentities.unique("outsider"));
        as(outsider).get("/webhooks/{id}", id).then().statusCode(404);
        as(adminKey).delete("/webhooks/{id}", id).then().statusCode(204);
        as(adminKey).get("/webhooks/{id}", id).then().statusCode(404);
    }

    @Test
    void aDuplicateNameIsA409() {
        Api.createWebhook(adminKey, team, "hook", receiver.url("/a"), null, null);
        as(adminKey).body(Map.of("entity", team, "name", "hook", "url", receiver.url("/b"))).post("/webhooks")
                .then().statusCode(409);
    }

    @Test
    void privateAndMalformedUrlsAreRefusedAtSave() {
        for (String url : List.of("http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data", "http://127.0.0.2/x",
                "http://[::1]/x", "http://0x7f000001/", "http://user:pw@127.0.0.1/x", "ftp://127.0.0.1/")) {
            as(adminKey).body(Map.of("entity", team, "name", "bad", "url", url)).post("/webhooks")
                    .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "url")));
        }
    }

    @Test
    void aSecretReferenceMustExist() {
        as(adminKey).body(Map.of("entity", team, "name", "hook", "url", receiver.url("/a"), "secret", "MISSING")).post("/webhooks")
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "secret")));
    }

    @Test
    void onlyAdminsAddWebhooks() {
        as(memberKey).body(Map.of("entity", team, "name", "hook", "url", receiver.url("/a"))).post("/webhooks")
                .then().statusCode(403);
    }

    @Test
    void theTestButtonSendsASignedRequestAndShowsTheAnswer() {
        Api.putSecret(adminKey, team, "TOKEN", "bearer-value-1");
        Api.putSecret(adminKey, team, "SIGNING", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        String id = Api.createWebhook(adminKey, team, "hook", receiver.url("/test"), "TOKEN", "SIGNING");
        receiver.answering(n -> new TestReceiver.Answer(202, Map.of("X-Reply", "yes"), "echo bearer-value-1 accepted", 0));

        String response = as(adminKey).body(Map.of("payload", Map.of("text", "hello ${event_author}", "token", "${ACCESS_TOKEN}")))
                .post("/webhooks/{id}/test", id)
                .then().statusCode(200)
                .body("status_code", equalTo(202))
                .body("headers.'x-reply'", equalTo("yes"))
                .body("body", equalTo("echo *** accepted"))
                .body("error", nullValue())
                .extract().asString();
        assertFalse(response.contains("bearer-value-1"));

        TestReceiver.Received request = receiver.received().get(0);
        assertEquals("Bearer bearer-value-1", request.header("Authorization"));
        assertEquals("application/json", request.header("Content-Type"));
        assertTrue(TestReceiver.svcSignatureValid(request, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertTrue(TestReceiver.standardSignatureValid(request, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertTrue(request.text().contains("\"token\":\"bearer-value-1\""), request.text());
        as(adminKey).queryParam("entity", team).get("/secrets").then().body(containsString("TOKEN"));
    }

    @Test
    void theTestButtonNeverShowsASecretTheEndpointEchoes() throws Exception {
        String token = "Tok3n_Echo.Me~1";
        String signing = "s3cr\"et/+x";
        Api.putSecret(adminKey, team, "TOKEN", token);
        Api.putSecret(adminKey, team, "SIGNING", signing);
        // A server of its own Vert.x: a second server on the application's instance would clash with its HTTP metrics.
        Vertx vertx = Vertx.vertx();
        io.vertx.core.http.HttpServer echo = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            String authorization = request.getHeader("Authorization");
            request.response().setStatusCode(200).setStatusMessage("Seen " + authorization)
                    .putHeader("X-Echo-Authorization", authorization)
                    .putHeader("X-Echo-" + token, "name")
                    .putHeader("X-Echo-Encoded", Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)))
                    .end("got " + body + " with " + authorization + " url " + URLEncoder.encode(signing, StandardCharsets.UTF_8)
                            + " b64 " + Base64.getUrlEncoder().withoutPadding().encodeToString(signing.getBytes(StandardCharsets.UTF_8))
                            + " upper " + token.toUpperCase(Locale.ROOT));
        }));
        int port = echo.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        try {
            String id = Api.createWebhook(adminKey, team, "echo", "http://127.0.0.1:" + port + "/echo", "TOKEN", "SIGNING");
            String response = as(adminKey).body("{\"payload\": {\"token\": \"${ACCESS_TOKEN}\", \"secret\": \"${SIGNING}\"}}")
                    .post("/webhooks/{id}/test", id)
                    .then().statusCode(200)
                    .body("status_code", equalTo(200))
                    .body("headers.'x-echo-authorization'", equalTo("Bearer ***"))
                    .body("headers.'x-echo-***'", equalTo("name"))
                    .body("headers.'x-echo-encoded'", equalTo("***"))
                    .body("body", equalTo("got {\"token\":\"***\",\"secret\":\"***\"} with Bearer *** url *** b64 *** upper ***"))
                    .extract().asString();
            for (String form : List.of(token, signing, "s3cr\\\"et", URLEncoder.encode(signing, StandardCharsets.UTF_8),
                    Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)))) {
                assertFalse(response.toLowerCase(Locale.ROOT).contains(form.toLowerCase(Locale.ROOT)),
                        form + " in " + response);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theTestButtonReportsAConnectionError() {
        String id = Api.createWebhook(adminKey, team, "hook", receiver.url("/gone"), null, null);
        receiver.close();
        as(adminKey).post("/webhooks/{id}/test", id)
                .then().statusCode(200).body("status_code", nullValue()).body("error", containsString("Connection failed"));
    }

    @Test
    void anotherTeamsWebhooksAreForbidden() {
        String outsider = TestIdentities.userWithKey(TestIdentities.unique("outsider"));
        as(outsider).queryParam("entity", team).get("/webhooks").then().statusCode(403);
        as(outsider).body(Map.of("entity", team, "name", "hook", "url", receiver.url("/a"))).post("/webhooks").then().statusCode(403);
    }

    @Test
    void noKeyIsA401() {
        io.restassured.RestAssured.given().queryParam("entity", team).get("/webhooks").then().statusCode(401);
        io.restassured.RestAssured.given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY + "x")
                .queryParam("entity", team).get("/webhooks").then().statusCode(401);
    }
}
