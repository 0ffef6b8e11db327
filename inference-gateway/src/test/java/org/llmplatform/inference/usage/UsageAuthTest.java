package org.llmplatform.inference.usage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class UsageAuthTest {

    @Test
    void noKeyIsRefused() {
        given().get("/v1/usage?project=anyone/p").then().statusCode(401);
    }

    @Test
    void anUnknownKeyIsRefused() {
        given().header("Authorization", "Bearer sk-unknown-" + TestIdentities.unique("k"))
                .get("/v1/usage?project=anyone/p").then().statusCode(401);
    }

    @Test
    void aRevokedKeyIsRefused() {
        String user = TestIdentities.unique("rev");
        String key = TestIdentities.userWithKey(user);
        usage(bearer(key), user + "/p").then().statusCode(200);
        TestIdentities.revoke(key);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> usage(bearer(key), user + "/p").then().statusCode(401));
    }

    @Test
    void anotherTeamsProjectIsForbidden() {
        String user = TestIdentities.unique("outsider");
        String member = TestIdentities.unique("member");
        String team = TestIdentities.unique("team");
        String key = TestIdentities.userWithKey(user);
        TestIdentities.userWithKey(member);
        TestIdentities.team(team, member);
        usage(bearer(key), team + "/p").then().statusCode(403)
                .body("error.type", equalTo("permission_error"))
                .body("error.message", containsString(team));
    }

    @Test
    void aTeamMemberReadsTheTeamsProject() {
        String member = TestIdentities.unique("member");
        String team = TestIdentities.unique("team");
        String key = TestIdentities.userWithKey(member);
        TestIdentities.team(team, member);
        usage(bearer(key), team + "/p").then().statusCode(200).body("object", equalTo("list"));
    }

    @Test
    void bearerAndBasicAreBothAccepted() {
        String user = TestIdentities.unique("both");
        String key = TestIdentities.userWithKey(user);
        String basic = "Basic " + Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));
        usage(bearer(key), user + "/p").then().statusCode(200)
                .body("object", equalTo("list")).body("data", empty());
        usage(basic, user + "/p").then().statusCode(200).body("object", equalTo("list"));
    }

    @Test
    void aMalformedProjectIsA400() {
        String user = TestIdentities.unique("bad");
        String key = TestIdentities.userWithKey(user);
        usage(bearer(key), "no-slash").then().statusCode(400)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.message", containsString("entity/project"));
    }

    private static io.restassured.response.Response usage(String authorization, String project) {
        return given().header("Authorization", authorization).queryParam("project", project).get("/v1/usage");
    }

    private static String bearer(String key) {
        return "Bearer " + key;
    }
}
