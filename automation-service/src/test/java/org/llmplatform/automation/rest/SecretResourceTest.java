package org.llmplatform.automation.rest;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.llmplatform.automation.Api.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.Teams;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class SecretResourceTest {

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

    @Test
    void aSecretIsWriteOnlyAndEncryptedAtRest() throws Exception {
        String value = "sk-" + TestIdentities.unique("value");
        String written = as(adminKey).body(Map.of("value", value)).put("/secrets/{team}/GITHUB_TOKEN", team)
                .then().statusCode(200)
                .body("name", equalTo("GITHUB_TOKEN")).body("entity", equalTo(team))
                .extract().asString();
        assertFalse(written.contains(value));
        String listed = as(memberKey).queryParam("entity", team).get("/secrets")
                .then().statusCode(200).body("data.name", equalTo(List.of("GITHUB_TOKEN")))
                .extract().asString();
        assertFalse(listed.contains(value));
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT kek_id, ciphertext FROM automation.secrets WHERE entity = '" + team + "'")) {
            row.next();
            assertEquals("test", row.getString("kek_id"));
            assertFalse(new String(row.getBytes("ciphertext"), StandardCharsets.ISO_8859_1).contains(value));
        }
    }

    @Test
    void rotatingOverwritesAndDeletingRemoves() {
        as(adminKey).body(Map.of("value", "one")).put("/secrets/{team}/TOKEN", team).then().statusCode(200);
        as(adminKey).body(Map.of("value", "two")).put("/secrets/{team}/TOKEN", team).then().statusCode(200);
        as(adminKey).queryParam("entity", team).get("/secrets").then().body("data", hasSize(1));
        as(adminKey).delete("/secrets/{team}/TOKEN", team).then().statusCode(204);
        as(adminKey).delete("/secrets/{team}/TOKEN", team).then().statusCode(404);
    }

    @Test
    void onlyTeamAdminsWriteSecrets() {
        as(memberKey).body(Map.of("value", "x")).put("/secrets/{team}/TOKEN", team)
                .then().statusCode(403).body("detail", equalTo("Only admins of '" + team + "' can manage its secrets"));
        String outsider = TestIdentities.userWithKey(TestIdentities.unique("outsider"));
        as(outsider).queryParam("entity", team).get("/secrets").then().statusCode(403);
    }

    @Test
    void aBadNameOrEmptyValueIsA422() {
        as(adminKey).body(Map.of("value", "x")).put("/secrets/{team}/not-valid", team)
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("path", "name")));
        as(adminKey).body(Map.of("value", "")).put("/secrets/{team}/TOKEN", team)
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "value")))
                .body(not(containsString("\"input\":\"\"")));
        as(adminKey).body(Map.of()).put("/secrets/{team}/TOKEN", team)
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "value")));
    }

    @Test
    void everyWayInChecksTheKey() {
        given().queryParam("entity", team).get("/secrets").then().statusCode(401);
        given().header("Authorization", "Bearer " + adminKey + "x").queryParam("entity", team).get("/secrets").then().statusCode(401);
        String basic = Base64.getEncoder().encodeToString(("api:" + adminKey).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Basic " + basic).queryParam("entity", team).get("/secrets").then().statusCode(200);
        TestIdentities.revoke(memberKey);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                as(memberKey).queryParam("entity", team).get("/secrets").then().statusCode(401));
    }
}
