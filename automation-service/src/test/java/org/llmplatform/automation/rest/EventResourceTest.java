package org.llmplatform.automation.rest;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EventResourceTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private String user;
    private String key;

    @BeforeEach
    void createUser() {
        user = TestIdentities.unique("lin");
        key = TestIdentities.userWithKey(user);
    }

    @Test
    void eventsComeNewestFirstInPagesOfTwentyByDefault() {
        List<String> newestFirst = publishEvents(user, "llm", 21);

        as(key).queryParam("entity", user).get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(newestFirst.subList(0, 20)))
                .body("has_more", equalTo(true));
    }

    @Test
    void beforeAnEventIdPagesOnUntilNothingIsLeft() {
        List<String> newestFirst = publishEvents(user, "llm", 5);

        as(key).queryParam("entity", user).queryParam("limit", 2).get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(newestFirst.subList(0, 2)))
                .body("has_more", equalTo(true));
        as(key).queryParam("entity", user).queryParam("limit", 2).queryParam("before", newestFirst.get(1)).get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(newestFirst.subList(2, 4)))
                .body("has_more", equalTo(true));
        as(key).queryParam("entity", user).queryParam("limit", 2).queryParam("before", newestFirst.get(3)).get("/events")
                .then().statusCode(200)
                .body("data.event_id", equalTo(newestFirst.subList(4, 5)))
                .body("has_more", equalTo(false));
    }

    @Test
    void aProjectNarrowsTheEventsToThatProject() {
        List<String> inLlm = publishEvents(user, "llm", 2);
        List<String> inVision = publishEvents(user, "vision", 1);

        as(key).queryParam("entity", user).queryParam("project", "vision").get("/events")
                .then().statusCode(200).body("data.event_id", equalTo(inVision));
        as(key).queryParam("entity", user).queryParam("project", "llm").get("/events")
                .then().statusCode(200).body("data.event_id", equalTo(inLlm));
    }

    @Test
    void theEntityIsRequired() {
        as(key).get("/events")
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "entity")))
                .body("detail[0].type", equalTo("missing"));
    }

    @Test
    void aLimitOutsideOneToAHundredOrNotANumberIsRefusedNamingIt() {
        for (String limit : List.of("0", "101", "-3", "ten")) {
            as(key).queryParam("entity", user).queryParam("limit", limit).get("/events")
                    .then().statusCode(422)
                    .body("detail[0].loc", equalTo(List.of("query", "limit")))
                    .body("detail[0].input", equalTo(limit));
        }
    }

    @Test
    void anUnknownBeforeIsRefusedNamingIt() {
        as(key).queryParam("entity", user).queryParam("before", "no-such-event").get("/events")
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "before")));
    }

    @Test
    void anUnknownEventIsA404() {
        as(key).get("/events/{id}", "no-such-event")
                .then().statusCode(404).body("detail", equalTo("No event with id 'no-such-event'"));
    }

    @Test
    void anotherTeamsEventsAreForbiddenAndItsEventsLookMissing() {
        String outsider = TestIdentities.unique("owner");
        TestIdentities.userWithKey(outsider);
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, outsider);
        String theirs = publishEvents(team, "llm", 1).get(0);

        as(key).queryParam("entity", team).get("/events")
                .then().statusCode(403).body("detail", equalTo("You do not have access to entity '" + team + "'"));
        as(key).queryParam("entity", team).queryParam("project", "llm").get("/events").then().statusCode(403);
        as(key).get("/events/{id}", theirs).then().statusCode(404);
    }

    @Test
    void aTeamMemberSeesTheTeamsEvents() {
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, user);
        String event = publishEvents(team, "llm", 1).get(0);

        as(key).queryParam("entity", team).get("/events").then().statusCode(200).body("data.event_id", equalTo(List.of(event)));
        as(key).get("/events/{id}", event).then().statusCode(200).body("entity", equalTo(team));
    }

    @Test
    void noKeyIsA401() {
        given().queryParam("entity", user).get("/events")
                .then().statusCode(401).body("detail", equalTo("Missing API key: send 'Authorization: Bearer <key>'"));
    }

    @Test
    void anUnknownKeyIsA401() {
        given().header("Authorization", "Bearer " + key + "x").queryParam("entity", user).get("/events")
                .then().statusCode(401).body("detail", equalTo("Invalid API key"));
    }

    @Test
    void aRevokedKeyIsRefused() {
        as(key).queryParam("entity", user).get("/events").then().statusCode(200);
        TestIdentities.revoke(key);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                as(key).queryParam("entity", user).get("/events").then().statusCode(401));
    }

    @Test
    void bearerAndBasicAreBothAccepted() {
        String basic = Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Bearer " + key).queryParam("entity", user).get("/events")
                .then().statusCode(200).body("data", hasSize(0)).body("has_more", equalTo(false));
        given().header("Authorization", "Basic " + basic).queryParam("entity", user).get("/events")
                .then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void theServiceIsReadyWithItsDatabaseAndConsumer() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("Authorization", "Bearer " + apiKey);
    }

    /** Publishes {@code count} events a second apart, waits until all are stored, and returns their ids newest first. */
    private static List<String> publishEvents(String entity, String project, int count) {
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ArtifactEvent event = ArtifactEventsTopic.event(entity, project, start.plusSeconds(i));
            ArtifactEventsTopic.publish(event);
            ids.add(0, event.eventId());
        }
        String admin = "Bearer " + PlatformTestResources.ADMIN_KEY;
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                given().header("Authorization", admin).get("/events/{id}", ids.get(0)).then().statusCode(200));
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                given().header("Authorization", admin)
                        .queryParam("entity", entity).queryParam("project", project).queryParam("limit", 100)
                        .get("/events")
                        .then().body("data", hasSize(count)));
        return ids;
    }
}
