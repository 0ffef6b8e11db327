package org.llmplatform.tracing.calls;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallAuthTest {

    @Test
    void noKeyIsRefused() {
        readAnyCall(given()).statusCode(401).body("reason", notNullValue());
    }

    @Test
    void anUnknownKeyIsRefused() {
        readAnyCall(given().header("Authorization", "Bearer no-such-key")).statusCode(401)
                .body("reason", equalTo("Invalid API key"));
    }

    @Test
    void aRevokedKeyIsRefused() {
        String user = TestIdentities.unique("revoked");
        String key = TestIdentities.userWithKey(user);
        read(bearer(key), user + "/p").statusCode(200);
        TestIdentities.revoke(key);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> read(bearer(key), user + "/p").statusCode(401));
    }

    @Test
    void anotherTeamsProjectIsForbidden() {
        String outsider = TestIdentities.unique("outsider");
        String key = TestIdentities.userWithKey(outsider);
        String member = TestIdentities.unique("member");
        TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, member);

        read(bearer(key), team + "/p").statusCode(403).body("reason", notNullValue());
        startIn(bearer(key), team + "/p").statusCode(403);
    }

    @Test
    void aTeamMemberUsesTheTeamsProject() {
        String member = TestIdentities.unique("member");
        String key = TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("team");
        TestIdentities.team(team, member);

        String id = startIn(bearer(key), team + "/p").statusCode(200).extract().path("id");
        given().spec(bearer(key)).contentType(ContentType.JSON).body(Map.of("project_id", team + "/p", "id", id))
                .post("/call/read").then().statusCode(200).body("call.svc_user_id", equalTo(member));
    }

    @Test
    void basicAndBearerAreBothAccepted() {
        String user = TestIdentities.unique("both");
        String key = TestIdentities.userWithKey(user);
        String basic = Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));
        read(given().header("Authorization", "Basic " + basic), user + "/p").statusCode(200);
        read(bearer(key), user + "/p").statusCode(200);
    }

    @Test
    void aMalformedProjectIdIsABadRequest() {
        String user = TestIdentities.unique("malformed");
        String key = TestIdentities.userWithKey(user);
        read(bearer(key), "no-slash").statusCode(400).body("reason", notNullValue());
    }

    private static RequestSpecification bearer(String key) {
        return given().header("Authorization", "Bearer " + key);
    }

    private static ValidatableResponse readAnyCall(RequestSpecification request) {
        return read(request, "someone/p");
    }

    private static ValidatableResponse read(RequestSpecification request, String project) {
        return request.contentType(ContentType.JSON)
                .body(Map.of("project_id", project, "id", UUID.randomUUID().toString()))
                .post("/call/read").then();
    }

    private static ValidatableResponse startIn(RequestSpecification request, String project) {
        return request.contentType(ContentType.JSON)
                .body(Map.of("start", Map.of("project_id", project, "op_name", "op", "started_at", "2025-01-01T00:00:00Z",
                        "attributes", Map.of(), "inputs", Map.of())))
                .post("/call/start").then();
    }
}
