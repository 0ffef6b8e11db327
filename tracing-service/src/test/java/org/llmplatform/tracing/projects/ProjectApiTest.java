package org.llmplatform.tracing.projects;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ProjectApiTest {

    @Test
    void aUserSeesTheProjectsOfItsOwnEntityAndItsTeamsThatHoldDataMostRecentFirst() {
        TraceClient alice = new TraceClient("projects");
        TraceClient stranger = new TraceClient("stranger");
        String team = TestIdentities.unique("crew");
        TestIdentities.team(team, alice.user);
        alice.write(List.of(alice.start("a1", "op", "2026-01-01T10:00:00Z"), alice.start("a2", "op", "2026-01-01T10:00:01Z"),
                alice.start("gone", "op", "2026-01-01T10:00:02Z")), List.of(alice.end("a1", "2026-01-01T10:00:05Z")));
        alice.post("/calls/delete", Map.of("project_id", alice.project, "call_ids", List.of("gone"))).statusCode(200);
        alice.post("/obj/create", Map.of("obj", Map.of("project_id", team + "/shared", "object_id", "settings",
                "val", Map.of("temperature", 0.5)))).statusCode(200);
        stranger.write(List.of(stranger.start("s1", "op", "2026-01-02T00:00:00Z")), List.of());

        JsonPath answer = projects(alice.key);

        assertEquals(List.of(alice.user, team), answer.getList("entities"));
        List<Map<String, Object>> projects = answer.getList("projects");
        assertEquals(List.of(team + "/shared", alice.project), projects.stream().map(p -> p.get("project_id")).toList());
        Map<String, Object> own = projects.get(1);
        assertEquals(alice.user, own.get("entity"));
        assertEquals("p", own.get("project"));
        assertEquals(2, own.get("call_count"));
        assertEquals("2026-01-01T10:00:05Z", own.get("last_activity"));
        assertEquals(0, projects.get(0).get("call_count"));
    }

    @Test
    void theBootstrapAdministratorSeesEveryEntitysProjects() {
        TraceClient bob = new TraceClient("projects-admin");
        bob.write(List.of(bob.start("b1", "op", "2026-01-03T00:00:00Z")), List.of());

        JsonPath answer = projects(PlatformTestResources.ADMIN_KEY);

        assertTrue(answer.getList("entities").contains(bob.user));
        assertTrue(answer.getList("projects.project_id").contains(bob.project));
    }

    @Test
    void aUserWithoutDataHasItsEntitiesAndNoProjects() {
        TraceClient empty = new TraceClient("projects-empty");
        JsonPath answer = projects(empty.key);
        assertEquals(List.of(empty.user), answer.getList("entities"));
        assertEquals(List.of(), answer.getList("projects"));
    }

    @Test
    void aCallerWithoutAKeyIsTurnedAway() {
        given().get("/projects").then().statusCode(401);
    }

    private static JsonPath projects(String key) {
        return given().header("Authorization", "Bearer " + key).get("/projects").then().statusCode(200)
                .extract().jsonPath();
    }
}
