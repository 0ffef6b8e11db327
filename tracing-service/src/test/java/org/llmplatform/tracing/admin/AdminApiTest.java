package org.llmplatform.tracing.admin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.LogCapture;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AdminApiTest {

    private static final String ADMIN = "Bearer " + PlatformTestResources.ADMIN_KEY;

    @Test
    void anAdministratorCreatesAUserWhoseKeyThenWorks() {
        String user = TestIdentities.unique("ada");
        createUser(user);
        String key = createKey(user);

        given().header("Authorization", "Bearer " + key)
                .get("/admin/users/{user}/api-keys", user)
                .then().statusCode(200)
                .body("", hasSize(1))
                .body("[0].hint", equalTo("…" + key.substring(36)))
                .body("[0].revoked_at", nullValue());
    }

    @Test
    void aKeyIsShownOnceAndNeverLoggedOrListedAgain() {
        String user = TestIdentities.unique("grace");
        createUser(user);
        try (LogCapture log = LogCapture.start()) {
            String key = createKey(user);
            given().header("Authorization", "Bearer " + key)
                    .get("/admin/users/{user}/api-keys", user)
                    .then().statusCode(200)
                    .body(not(containsString(key)));
            given().header("Authorization", "Bearer " + key + "x").get("/admin/users/{user}/api-keys", user)
                    .then().statusCode(401);
            assertEquals(List.of(), log.linesContaining(key), "a key reached the log");
        }
    }

    @Test
    void onlyAnAdministratorCreatesUsers() {
        String user = TestIdentities.unique("eve");
        String key = TestIdentities.userWithKey(user);
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("name", TestIdentities.unique("mallory")))
                .post("/admin/users")
                .then().statusCode(403).body("reason", containsString("administrator"));
    }

    @Test
    void aNameIsTakenOnceAcrossUsersAndTeams() {
        String name = TestIdentities.unique("shared");
        createUser(name);
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/admin/teams")
                .then().statusCode(409).body("reason", containsString(name));
    }

    @Test
    void aTeamCreatorManagesItsMembers() {
        String owner = TestIdentities.unique("owner");
        String member = TestIdentities.unique("member");
        String team = TestIdentities.unique("team");
        String ownerKey = TestIdentities.userWithKey(owner);
        TestIdentities.userWithKey(member);

        given().header("Authorization", "Bearer " + ownerKey).contentType(ContentType.JSON).body(Map.of("name", team))
                .post("/admin/teams").then().statusCode(201).body("name", equalTo(team));
        given().header("Authorization", "Bearer " + ownerKey).contentType(ContentType.JSON).body(Map.of("role", "member"))
                .put("/admin/teams/{team}/members/{user}", team, member)
                .then().statusCode(200).body("role", equalTo("member"));
        given().header("Authorization", "Bearer " + ownerKey)
                .get("/admin/teams/{team}/members", team)
                .then().statusCode(200).body("user", org.hamcrest.Matchers.containsInAnyOrder(owner, member));
    }

    @Test
    void anInvalidRoleNamesTheField() {
        String team = TestIdentities.unique("team");
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("name", team))
                .post("/admin/teams").then().statusCode(201);
        String user = TestIdentities.unique("u");
        createUser(user);
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("role", "owner"))
                .put("/admin/teams/{team}/members/{user}", team, user)
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "role")));
    }

    @Test
    void aRevokedKeyStopsWorking() {
        String user = TestIdentities.unique("rev");
        createUser(user);
        String key = createKey(user);
        String id = given().header("Authorization", "Bearer " + key).get("/admin/users/{user}/api-keys", user)
                .then().statusCode(200).extract().path("[0].id");
        given().header("Authorization", "Bearer " + key).delete("/admin/api-keys/{id}", id).then().statusCode(204);
        given().header("Authorization", "Bearer " + key).get("/admin/users/{user}/api-keys", user)
                .then().statusCode(401).body("reason", equalTo("Invalid API key"));
        given().header("Authorization", ADMIN).get("/admin/users/{user}/api-keys", user)
                .then().statusCode(200).body("[0].revoked_at", notNullValue());
    }

    @Test
    void aUserReadsWhoTheyAreWithTheirTeamsAndRoles() {
        String user = TestIdentities.unique("me");
        String other = TestIdentities.unique("other");
        String key = TestIdentities.userWithKey(user);
        String otherKey = TestIdentities.userWithKey(other);
        String ownTeam = "b-" + TestIdentities.unique("team");
        String joinedTeam = "a-" + TestIdentities.unique("team");
        createTeamAs(key, ownTeam);
        createTeamAs(otherKey, joinedTeam);
        given().header("Authorization", "Bearer " + otherKey).contentType(ContentType.JSON).body(Map.of("role", "member"))
                .put("/admin/teams/{team}/members/{user}", joinedTeam, user).then().statusCode(200);

        given().header("Authorization", "Bearer " + key).get("/admin/me")
                .then().statusCode(200)
                .body("name", equalTo(user))
                .body("admin", equalTo(false))
                .body("has_api_keys", equalTo(true))
                .body("api_key_id", notNullValue())
                .body("teams.name", equalTo(List.of(joinedTeam, ownTeam)))
                .body("teams.role", equalTo(List.of("member", "admin")));
        given().header("Authorization", ADMIN).get("/admin/me")
                .then().statusCode(200).body("admin", equalTo(true)).body("has_api_keys", equalTo(false));
        given().get("/admin/me").then().statusCode(401);
    }

    @Test
    void usersListTheirOwnTeamsAndAdministratorsEveryTeam() {
        String user = TestIdentities.unique("lister");
        String key = TestIdentities.userWithKey(user);
        String mine = TestIdentities.unique("mine");
        String notMine = TestIdentities.unique("theirs");
        createTeamAs(key, mine);
        createTeamAs(PlatformTestResources.ADMIN_KEY, notMine);

        given().header("Authorization", "Bearer " + key).get("/admin/teams")
                .then().statusCode(200)
                .body("name", equalTo(List.of(mine)))
                .body("[0].role", equalTo("admin"))
                .body("[0].created_at", notNullValue());
        given().header("Authorization", ADMIN).get("/admin/teams")
                .then().statusCode(200)
                .body("name", org.hamcrest.Matchers.hasItems(mine, notMine))
                .body("find { it.name == '" + notMine + "' }.role", nullValue());
    }

    private static void createTeamAs(String key, String team) {
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(Map.of("name", team))
                .post("/admin/teams").then().statusCode(201);
    }

    private static void createUser(String name) {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/admin/users")
                .then().statusCode(201).body("name", equalTo(name)).body("admin", equalTo(false));
    }

    private static String createKey(String user) {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON).body(Map.of("name", "laptop"))
                .post("/admin/users/{user}/api-keys", user)
                .then().statusCode(201).body("key", notNullValue()).extract().path("key");
    }
}
