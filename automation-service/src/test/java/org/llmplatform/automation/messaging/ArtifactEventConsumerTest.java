package org.llmplatform.automation.messaging;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ArtifactEventConsumerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private String user;
    private String key;

    @BeforeEach
    void createUser() {
        user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
    }

    @Test
    void aProducedEventBecomesVisibleThroughTheApi() {
        Instant occurredAt = Instant.parse("2025-03-01T12:00:00.123456Z");
        ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                ArtifactEventType.ADD_ARTIFACT_ALIAS, user, "llm", "qwen-lora", "v7", List.of("production", "latest"),
                List.of("europe"), "grace", Map.of("step", 7, "eval", Map.of("accuracy", 0.91)), occurredAt);
        ArtifactEventsTopic.publish(event);

        awaitVisible(event.eventId());
        given().header("Authorization", "Bearer " + key)
                .get("/events/{id}", event.eventId())
                .then().statusCode(200)
                .body("event_id", equalTo(event.eventId()))
                .body("event_type", equalTo("ADD_ARTIFACT_ALIAS"))
                .body("entity", equalTo(user))
                .body("project", equalTo("llm"))
                .body("collection", equalTo("qwen-lora"))
                .body("version", equalTo("v7"))
                .body("aliases", equalTo(List.of("production", "latest")))
                .body("tags", equalTo(List.of("europe")))
                .body("author", equalTo("grace"))
                .body("metadata.step", equalTo(7))
                .body("metadata.eval.accuracy", equalTo(0.91f))
                .body("occurred_at", equalTo("2025-03-01T12:00:00.123456Z"))
                .body("received_at", notNullValue());
        given().header("Authorization", "Bearer " + key)
                .queryParam("entity", user)
                .get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(List.of(event.eventId())))
                .body("has_more", equalTo(false));
    }

    @Test
    void aRedeliveredEventIsStoredOnceAndKeepsItsFirstContent() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ArtifactEvent first = ArtifactEventsTopic.event(user, "llm", now);
        ArtifactEvent redelivered = new ArtifactEvent(first.schemaVersion(), first.eventId(), first.eventType(),
                first.entity(), first.project(), first.collection(), "v99", first.aliases(), first.tags(),
                first.author(), first.metadata(), first.occurredAt());
        ArtifactEvent later = ArtifactEventsTopic.event(user, "llm", now.plusSeconds(1));
        ArtifactEventsTopic.publish(first);
        ArtifactEventsTopic.publish(redelivered);
        ArtifactEventsTopic.publish(later);

        awaitVisible(later.eventId());
        given().header("Authorization", "Bearer " + key)
                .queryParam("entity", user)
                .get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(List.of(later.eventId(), first.eventId())))
                .body("data[1].version", equalTo("v0"));
    }

    @Test
    void garbageIsDeadLetteredAndTheConsumerCarriesOn() {
        String garbage = "{not json at all " + UUID.randomUUID();
        ArtifactEvent next = ArtifactEventsTopic.event(user, "llm", Instant.now());
        ArtifactEventsTopic.send(next.key(), garbage);
        ArtifactEventsTopic.publish(next);

        awaitVisible(next.eventId());
        ConsumerRecord<String, String> dead = ArtifactEventsTopic.deadLetter(garbage, PATIENCE);
        assertEquals(next.key(), dead.key());
        assertTrue(reason(dead).contains("not a valid artifact event"), reason(dead));
    }

    @Test
    void aPoisonRecordAmongManyEventsIsTheOnlyOneDeadLetteredAndCopiesAreStoredOnce() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<ArtifactEvent> events = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            events.add(ArtifactEventsTopic.event(user, "llm", now.plusSeconds(i)));
        }
        ArtifactEvent first = events.get(0);
        ArtifactEvent copyOfFirst = new ArtifactEvent(first.schemaVersion(), first.eventId(), first.eventType(), first.entity(),
                first.project(), first.collection(), "v99", first.aliases(), first.tags(), first.author(), first.metadata(),
                first.occurredAt());
        String poison = "[\"a list, not an event\", \"" + UUID.randomUUID() + "\"]";
        events.subList(0, 5).forEach(ArtifactEventsTopic::publishAsync);
        ArtifactEventsTopic.send(first.key(), poison);
        ArtifactEventsTopic.publishAsync(copyOfFirst);
        events.subList(5, 10).forEach(ArtifactEventsTopic::publishAsync);

        events.forEach(event -> awaitVisible(event.eventId()));
        List<String> newestFirst = new ArrayList<>(events.stream().map(ArtifactEvent::eventId).toList());
        Collections.reverse(newestFirst);
        given().header("Authorization", "Bearer " + key)
                .queryParam("entity", user)
                .get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(newestFirst))
                .body("data[9].version", equalTo("v0"));
        assertTrue(reason(ArtifactEventsTopic.deadLetter(poison, PATIENCE)).contains("not a valid artifact event"));
    }

    @Test
    void anEventWithoutEntityIsDeadLettered() {
        Map<String, Object> withoutEntity = ArtifactEventsTopic.fields(ArtifactEventsTopic.event(user, "llm", Instant.now()));
        withoutEntity.remove("entity");
        String record = ArtifactEventsTopic.json(withoutEntity);
        ArtifactEvent next = ArtifactEventsTopic.event(user, "llm", Instant.now());
        ArtifactEventsTopic.send(next.key(), record);
        ArtifactEventsTopic.publish(next);

        awaitVisible(next.eventId());
        assertEquals("The artifact event lacks entity", reason(ArtifactEventsTopic.deadLetter(record, PATIENCE)));
        given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY)
                .get("/events/{id}", withoutEntity.get("event_id"))
                .then().statusCode(404);
    }

    @Test
    void anUnknownEventTypeIsDeadLettered() {
        Map<String, Object> unknownType = ArtifactEventsTopic.fields(ArtifactEventsTopic.event(user, "llm", Instant.now()));
        unknownType.put("event_type", "DELETE_EVERYTHING");
        String record = ArtifactEventsTopic.json(unknownType);
        ArtifactEvent next = ArtifactEventsTopic.event(user, "llm", Instant.now());
        ArtifactEventsTopic.send(next.key(), record);
        ArtifactEventsTopic.publish(next);

        awaitVisible(next.eventId());
        assertTrue(reason(ArtifactEventsTopic.deadLetter(record, PATIENCE)).contains("Unknown event_type 'DELETE_EVERYTHING'"));
    }

    private void awaitVisible(String eventId) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                given().header("Authorization", "Bearer " + key)
                        .get("/events/{id}", eventId)
                        .then().statusCode(200).body("event_id", containsString(eventId)));
    }

    private static String reason(ConsumerRecord<String, String> record) {
        Header reason = record.headers().lastHeader("dead-letter-reason");
        assertNotNull(reason, "the dead-lettered record carries no reason");
        return new String(reason.value(), StandardCharsets.UTF_8);
    }
}
