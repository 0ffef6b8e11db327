package org.llmplatform.automation.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.llmplatform.automation.Api.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.Teams;
import org.llmplatform.automation.TestReceiver;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The poller is the recovery path of the in-process hand-over: deliveries committed by an instance that
 * never handed them over (it stopped, crashed, or had no room) are claimed from the table and delivered.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class DeliveryRecoveryTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final TestReceiver receiver = new TestReceiver();

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void deliveriesThatWereNeverHandedOverAreDeliveredByThePoller() throws SQLException {
        String admin = TestIdentities.unique("admin");
        String key = TestIdentities.userWithKey(admin);
        String team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin);
        String webhook = Api.createWebhook(key, team, "recovered", receiver.url("/recovered"), null, null);
        String automation = Api.createAutomation(key, Api.automation("link", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null,
                webhook, Map.of("event", "${event_type}")));
        UUID waiting = UUID.randomUUID();
        UUID leasedByADeadInstance = UUID.randomUUID();

        try (Connection connection = connect()) {
            insertEvent(connection, team, "never-handed-over-" + waiting);
            insertEvent(connection, team, "lease-ran-out-" + leasedByADeadInstance);
            // Committed, but the instance stopped before handing it over (or had no room): left for a claim.
            insertDelivery(connection, waiting, "never-handed-over-" + waiting, automation, webhook, "PENDING", 0, "NULL");
            // Inserted leased to an instance that died before its first attempt: claimable once the lease runs out.
            insertDelivery(connection, leasedByADeadInstance, "lease-ran-out-" + leasedByADeadInstance, automation, webhook,
                    "SENDING", 1, "now() - interval '1 second'");
        }

        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> receiver.received().size() >= 2);
        Set<String> webhookIds = receiver.received().stream().map(request -> request.header("webhook-id")).collect(Collectors.toSet());
        assertEquals(Set.of(waiting.toString(), leasedByADeadInstance.toString()), webhookIds);
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertEquals(List.of("SUCCEEDED", "SUCCEEDED"), as(key).get("/automations/{id}/executions", automation).jsonPath()
                        .getList("data.status")));
        assertEquals(2, receiver.received().size());
    }

    private static void insertEvent(Connection connection, String team, String eventId) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO automation.events (event_id, event_type, entity, project, collection, version, author, occurred_at)
                VALUES (?, 'LINK_ARTIFACT', ?, 'llm', 'model', 'v1', 'someone', now())""")) {
            insert.setString(1, eventId);
            insert.setString(2, team);
            insert.executeUpdate();
        }
    }

    private static void insertDelivery(Connection connection, UUID id, String eventId, String automation, String webhook, String status,
            int attempts, String leaseUntil) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO automation.deliveries
                    (id, event_id, automation_id, webhook_id, payload_template, payload_masked, status, attempt_count, lease_until)
                VALUES (?, ?, ?::uuid, ?::uuid, '{"event":"${event_type}"}', '{"event":"LINK_ARTIFACT"}', ?, ?, """ + leaseUntil + ")")) {
            insert.setObject(1, id);
            insert.setString(2, eventId);
            insert.setString(3, automation);
            insert.setString(4, webhook);
            insert.setString(5, status);
            insert.setInt(6, attempts);
            insert.executeUpdate();
        }
    }

    private static Connection connect() throws SQLException {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
    }
}
