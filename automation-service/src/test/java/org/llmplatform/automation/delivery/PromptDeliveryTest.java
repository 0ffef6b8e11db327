package org.llmplatform.automation.delivery;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.llmplatform.automation.Api.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.automation.Teams;
import org.llmplatform.automation.TestReceiver;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * A new delivery's first attempt is handed over in process as soon as it is committed: with a poller that
 * would not look for an hour, every event is still delivered within seconds.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@TestProfile(PromptDeliveryTest.HourlyPoller.class)
class PromptDeliveryTest {

    public static class HourlyPoller implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("automation.delivery.poll-interval", "1h");
        }
    }

    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private final TestReceiver receiver = new TestReceiver();

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void newDeliveriesAreAttemptedAtOnceWithoutWaitingForThePoller() {
        String admin = TestIdentities.unique("admin");
        String key = TestIdentities.userWithKey(admin);
        String team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin);
        String webhook = Api.createWebhook(key, team, "prompt", receiver.url("/prompt"), null, null);
        String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null,
                webhook, Map.of("event", "${event_type}")));

        for (int i = 0; i < 3; i++) {
            ArtifactEventsTopic.publish(new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                    ArtifactEventType.LINK_ARTIFACT, team, "llm", "model", "v" + i, List.of("latest"), List.of(), admin, Map.of(),
                    Instant.now()));
        }

        await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(50)).until(() -> receiver.received().size() >= 3);
        await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                as(key).get("/automations/{id}/executions", automation).then().statusCode(200)
                        .body("data.status", equalTo(List.of("SUCCEEDED", "SUCCEEDED", "SUCCEEDED")))
                        .body("data.attempt_count", equalTo(List.of(1, 1, 1))));
        assertEquals(3, receiver.received().size());
    }
}
