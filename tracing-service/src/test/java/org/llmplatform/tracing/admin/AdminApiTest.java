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
