package org.llmplatform.automation.delivery;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.automation.Api.as;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.automation.Teams;
import org.llmplatform.automation.TestReceiver;
import org.llmplatform.automation.TestReceiver.Answer;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.LogCapture;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** Events published on Kafka end as signed POSTs to a real receiver on 127.0.0.1, retried and logged. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class WebhookDeliveryTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "ghp_" + UUID.randomUUID().toString().replace("-", "");
    private static final String SIGNING = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    private final TestReceiver receiver = new TestReceiver();
    private String team;
    private String admin;
    private String key;

    @BeforeEach
    void createTeam() {
        admin = TestIdentities.unique("admin");
        key = TestIdentities.userWithKey(admin);
        team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin);
        Api.putSecret(key, team, "TOKEN", TOKEN);
        Api.putSecret(key, team, "SIGNING", SIGNING);
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void anEventIsDeliveredSignedWithEveryVariableFilledIn() throws Exception {
        String webhook = Api.createWebhook(key, team, "ci", receiver.url("/hook"), "TOKEN", "SIGNING");
        String template = """
                {"event_type": "${event_type}", "client_payload": {"project": "${project_name}", "entity": "${entity_name}",
                 "author": "${event_author}", "alias": "${alias}", "tag": "${tag}", "collection": "${artifact_collection_name}",
                 "version": "${artifact_version}", "version_string": "${artifact_version_string}",
                 "step": "${artifact_metadata.step}", "note": "note: ${artifact_metadata.note}",
                 "token": "${ACCESS_TOKEN}", "secret": "${SIGNING}"}}""";
        String automation = Api.createAutomation(key, Api.automation("promote", Api.projectScope(team, "registry"),
                "ADD_ARTIFACT_ALIAS", Map.of("$or", List.of(Map.of("$and", List.of(Map.of("alias", Map.of("$regex", "^prod")))))),
                webhook, template));

        ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                ArtifactEventType.ADD_ARTIFACT_ALIAS, team, "registry", "qwen-lora", "v7", List.of("latest", "production"),
                List.of("europe"), "grace \"the\" admin", Map.of("step", 7, "note", "a\"b"), Instant.now());
        ArtifactEventsTopic.publish(event);

        TestReceiver.Received request = awaitRequests(receiver, 1).get(0);
        assertEquals("/hook", request.path());
        assertEquals("application/json", request.header("Content-Type"));
        assertEquals("Bearer " + TOKEN, request.header("Authorization"));
        assertTrue(TestReceiver.svcSignatureValid(request, SIGNING), "X-Svc-Signature");
        assertTrue(TestReceiver.standardSignatureValid(request, SIGNING), "webhook-signature");
        JsonNode body = JSON.readTree(request.body());
        JsonNode payload = body.get("client_payload");
        assertEquals("ADD_ARTIFACT_ALIAS", body.get("event_type").asText());
        assertEquals("registry", payload.get("project").asText());
        assertEquals(team, payload.get("entity").asText());
        assertEquals("grace \"the\" admin", payload.get("author").asText());
        assertEquals("production", payload.get("alias").asText());
        assertEquals("", payload.get("tag").asText());
        assertEquals("qwen-lora", payload.get("collection").asText());
        assertTrue(payload.get("version").asText().startsWith("svc-artifact://_id/"));
        assertEquals(team + "/registry/qwen-lora:production", payload.get("version_string").asText());
        assertEquals(7, payload.get("step").intValue());
        assertEquals("note: a\"b", payload.get("note").asText());
        assertEquals(TOKEN, payload.get("token").asText());
        assertEquals(SIGNING, payload.get("secret").asText());

        JsonPath history = awaitDelivery(automation, "SUCCEEDED");
        assertEquals(request.header("webhook-id"), history.getString("data[0].id"));
        assertEquals(event.eventId(), history.getString("data[0].event_id"));
        assertEquals("***", history.getString("data[0].payload.client_payload.token"));
        assertEquals("***", history.getString("data[0].payload.client_payload.secret"));
        assertEquals(200, history.getInt("data[0].attempts[0].status_code"));
        assertEquals("SCHEDULED", history.getString("data[0].attempts[0].trigger"));
        assertFalse(history.prettify().contains(TOKEN));
    }

    @Test
    void aVersionWithoutAnAliasIsNamedByItsIndexNotItsDigest() throws Exception {
        linkAutomation(receiver.url("/hook"), null, null);
        String digest = "3f9a0c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5";
        ArtifactEventsTopic.publish(new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                ArtifactEventType.LINK_ARTIFACT, team, "llm", "dataset", digest, List.of(), List.of(), admin, Map.of(),
                Instant.now(), 4));
        // A producer from before version_index tells the index only by an alias named vN.
        ArtifactEventsTopic.publish(new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                ArtifactEventType.LINK_ARTIFACT, team, "llm", "prompt", digest, List.of("latest", "v2"), List.of(), admin,
                Map.of(), Instant.now()));

        List<String> versions = new ArrayList<>();
        for (TestReceiver.Received request : awaitRequests(receiver, 2)) {
            versions.add(JSON.readTree(request.body()).get("version").asText());
        }
        assertEquals(Set.of(team + "/llm/dataset:v4", team + "/llm/prompt:v2"), Set.copyOf(versions));
    }

    @Test
    void anAliasSetOnAnObjectVersionNamesTheVersionByThatAlias() throws Exception {
        String webhook = Api.createWebhook(key, team, "aliases", receiver.url("/hook"), null, "SIGNING");
        Api.createAutomation(key, Api.automation("staging", Api.projectScope(team, "llm"), "ADD_ARTIFACT_ALIAS",
                Map.of("alias", Map.of("$regex", "^stag")), webhook, Map.of("alias", "${alias}", "version", "${artifact_version_string}")));
        // The record the tracing-service sends when PUT /objs/prompt/aliases moves "staging" to version 1.
        ArtifactEventsTopic.publish(new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                ArtifactEventType.ADD_ARTIFACT_ALIAS, team, "llm", "prompt", "up72y3L7zf7dNi56jV9MPHa3SvBaXl9xBo4OrZCSwYk",
                List.of("staging"), List.of(), admin, Map.of("artifact_type", "object", "version_index", 1), Instant.now(), 1));

        TestReceiver.Received request = awaitRequests(receiver, 1).get(0);
        assertTrue(TestReceiver.svcSignatureValid(request, SIGNING), "X-Svc-Signature");
        JsonNode body = JSON.readTree(request.body());
        assertEquals("staging", body.get("alias").asText());
        assertEquals(team + "/llm/prompt:staging", body.get("version").asText());
    }

    @Test
    void anEventOutsideTheFilterOrScopeIsNotDelivered() {
        String webhook = Api.createWebhook(key, team, "ci", receiver.url("/hook"), null, null);
        String automation = Api.createAutomation(key, Api.automation("prod only", Api.projectScope(team, "registry"),
                "ADD_ARTIFACT_ALIAS", Map.of("alias", Map.of("$regex", "^prod")), webhook, Map.of("alias", "${alias}")));
        ArtifactEventsTopic.publish(event(ArtifactEventType.ADD_ARTIFACT_ALIAS, "registry", List.of("staging")));
        ArtifactEventsTopic.publish(event(ArtifactEventType.ADD_ARTIFACT_ALIAS, "elsewhere", List.of("prod")));
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "registry", List.of("prod")));
        ArtifactEvent matching = event(ArtifactEventType.ADD_ARTIFACT_ALIAS, "registry", List.of("prod"));
        ArtifactEventsTopic.publish(matching);

        awaitDelivery(automation, "SUCCEEDED");
        as(key).get("/automations/{id}/executions", automation).then().body("data", hasSize(1))
                .body("data[0].event_id", equalTo(matching.eventId()));
        assertEquals(1, receiver.received().size());
    }

    @Test
    void aRepeatedEventIsDeliveredOnce() {
        String automation = linkAutomation(receiver.url("/hook"), null, null);
        ArtifactEvent event = event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest"));
        ArtifactEventsTopic.publish(event);
        ArtifactEventsTopic.publish(event);
        ArtifactEvent later = event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest"));
        ArtifactEventsTopic.publish(later);

        awaitRequests(receiver, 2);
        as(key).get("/automations/{id}/executions", automation).then().body("data", hasSize(2));
        assertEquals(2, receiver.received().size());
    }

    @Test
    void aFailingReceiverIsRetriedWithTheSameWebhookIdUntilItAnswers2xx() {
        receiver.answering(n -> n == 1 ? Answer.status(500) : n == 2 ? new Answer(503, Map.of("Retry-After", "0"), "", 0) : Answer.status(204));
        String automation = linkAutomation(receiver.url("/flaky"), null, "SIGNING");
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

        JsonPath history = awaitDelivery(automation, "SUCCEEDED");
        List<TestReceiver.Received> requests = receiver.received();
        assertEquals(3, requests.size());
        assertEquals(1, requests.stream().map(request -> request.header("webhook-id")).distinct().count());
        requests.forEach(request -> assertTrue(TestReceiver.standardSignatureValid(request, SIGNING)));
        assertEquals(List.of(500, 503, 204), history.getList("data[0].attempts.status_code"));
        assertEquals(List.of(false, false, true), history.getList("data[0].attempts.succeeded"));
    }

    @Test
    void aHangingReceiverTimesOutAndIsTriedAgain() {
        receiver.answering(n -> n == 1 ? new Answer(200, Map.of(), "", 5000) : Answer.status(200));
        String automation = linkAutomation(receiver.url("/slow"), null, null);
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

        JsonPath history = awaitDelivery(automation, "SUCCEEDED");
        assertTrue(history.getString("data[0].attempts[0].error").startsWith("No complete answer within 2000 ms"));
        assertNull(history.get("data[0].attempts[0].status_code"));
        assertEquals(200, history.getInt("data[0].attempts[1].status_code"));
    }

    @Test
    void aRedirectIsAFailureAndIsNotFollowed() {
        try (TestReceiver elsewhere = new TestReceiver()) {
            receiver.answering(n -> new Answer(302, Map.of("Location", elsewhere.url("/stolen")), "", 0));
            String automation = linkAutomation(receiver.url("/moved"), null, null);
            ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

            JsonPath history = awaitDelivery(automation, "FAILED");
            assertEquals(302, history.getInt("data[0].attempts[0].status_code"));
            assertEquals(4, history.getList("data[0].attempts").size());
            assertTrue(elsewhere.received().isEmpty());
        }
    }

    @Test
    void anEndpointThatIsGoneDisablesTheWebhookAndLaterDeliveriesAreDiscarded() {
        receiver.answering(n -> Answer.status(410));
        String webhook = Api.createWebhook(key, team, "gone", receiver.url("/gone"), null, null);
        String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null,
                webhook, Map.of("e", "${event_type}")));
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

        awaitDelivery(automation, "FAILED");
        as(key).get("/webhooks/{id}", webhook).then().body("enabled", equalTo(false))
                .body("disabled_reason", equalTo("The endpoint answered 410 Gone"));
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));
        await().atMost(PATIENCE).untilAsserted(() -> as(key).get("/automations/{id}/executions", automation).then()
                .body("data", hasSize(2)).body("data[0].status", equalTo("DISCARDED")));
        assertEquals(1, receiver.received().size());
    }

    @Test
    void failingForLongerThanTheLimitDisablesTheWebhook() {
        receiver.answering(n -> Answer.status(500));
        String webhook = Api.createWebhook(key, team, "down", receiver.url("/down"), null, null);
        String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null,
                webhook, Map.of()));
        // Events keep failing until the streak passes the 3 s of the test configuration.
        await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).until(() -> {
            ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));
            return !as(key).get("/webhooks/{id}", webhook).jsonPath().getBoolean("enabled");
        });
        as(key).get("/webhooks/{id}", webhook).then().body("disabled_reason", equalTo("Every attempt failed for at least 3 s"));

        receiver.answering(n -> Answer.status(200));
        as(key).body(Map.of("enabled", true)).put("/webhooks/{id}", webhook).then().statusCode(200).body("disabled_reason", equalTo(null));
        int queued = as(key).post("/automations/{id}/executions/redeliver-failed", automation).then().statusCode(200)
                .extract().path("queued");
        assertTrue(queued >= 2, "queued " + queued);
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertEquals(List.of("SUCCEEDED"), as(key).get("/automations/{id}/executions", automation).jsonPath()
                        .getList("data.status").stream().distinct().toList()));
    }

    @Test
    void manualRedeliveryResendsWithTheSameWebhookId() {
        String automation = linkAutomation(receiver.url("/again"), null, null);
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));
        String delivery = awaitDelivery(automation, "SUCCEEDED").getString("data[0].id");

        as(key).post("/automations/{id}/executions/{delivery}/redeliver", automation, delivery).then().statusCode(202);
        List<TestReceiver.Received> requests = awaitRequests(receiver, 2);
        assertEquals(requests.get(0).header("webhook-id"), requests.get(1).header("webhook-id"));
        await().atMost(PATIENCE).untilAsserted(() -> as(key).get("/automations/{id}/executions", automation).then()
                .body("data[0].attempts.trigger", equalTo(List.of("SCHEDULED", "MANUAL"))));
        as(key).post("/automations/{id}/executions/{delivery}/redeliver", automation, UUID.randomUUID()).then().statusCode(404);
    }

    @Test
    void aWebhookWhoseHostTurnedPrivateIsRefusedAtSendTime() throws Exception {
        String webhook = Api.createWebhook(key, team, "turned", receiver.url("/ok"), null, null);
        String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null,
                webhook, Map.of()));
        // What a DNS change after the save looks like to the sender: the stored URL now leads to a private address.
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement update = connection.prepareStatement("UPDATE automation.webhooks SET url = ? WHERE id = ?::uuid")) {
            update.setString(1, "http://10.1.2.3/internal");
            update.setString(2, webhook);
            update.executeUpdate();
        }
        ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

        JsonPath history = awaitDelivery(automation, "FAILED");
        assertTrue(history.getString("data[0].attempts[0].error").contains("inside the blocked range 10.0.0.0/8"),
                history.getString("data[0].attempts[0].error"));
    }

    @Test
    void secretsNeverReachLogsOrResponses() {
        try (LogCapture log = LogCapture.start()) {
            receiver.answering(n -> new Answer(410, Map.of(), "you sent " + TOKEN + " and " + SIGNING, 0));
            String webhook = Api.createWebhook(key, team, "leaky", receiver.url("/echo"), "TOKEN", "SIGNING");
            String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT",
                    null, webhook, Map.of("t", "${ACCESS_TOKEN}")));
            ArtifactEventsTopic.publish(event(ArtifactEventType.LINK_ARTIFACT, "llm", List.of("latest")));

            JsonPath history = awaitDelivery(automation, "FAILED");
            assertEquals("you sent *** and ***", history.getString("data[0].attempts[0].response_body"));
            String everything = history.prettify()
                    + as(key).get("/webhooks/{id}", webhook).asString()
                    + as(key).queryParam("entity", team).get("/secrets").asString()
                    + as(key).get("/automations/{id}", automation).asString();
            assertFalse(everything.contains(TOKEN));
            assertFalse(everything.contains(SIGNING));
            await().atMost(PATIENCE).until(() -> !log.linesContaining("Disabling webhook").isEmpty());
            assertEquals(List.of(), log.linesContaining(TOKEN));
            assertEquals(List.of(), log.linesContaining(SIGNING));
        }
    }

    private String linkAutomation(String url, String accessToken, String signing) {
        String webhook = Api.createWebhook(key, team, "hook " + UUID.randomUUID().toString().substring(0, 8), url, accessToken, signing);
        return Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null, webhook,
                Map.of("event", "${event_type}", "version", "${artifact_version_string}")));
    }

    private ArtifactEvent event(ArtifactEventType type, String project, List<String> aliases) {
        return new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(), type, team, project, "model", "v1",
                aliases, List.of(), admin, Map.of(), Instant.now());
    }

    private JsonPath awaitDelivery(String automation, String status) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                as(key).get("/automations/{id}/executions", automation).then().statusCode(200).body("data[0].status", equalTo(status)));
        return as(key).get("/automations/{id}/executions", automation).jsonPath();
    }

    private static List<TestReceiver.Received> awaitRequests(TestReceiver receiver, int count) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> receiver.received().size() >= count);
        return receiver.received();
    }
}
