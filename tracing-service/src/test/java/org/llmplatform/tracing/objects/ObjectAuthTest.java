package org.llmplatform.tracing.objects;

import static io.restassured.RestAssured.given;
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
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** The object, table and ref endpoints take the same keys as the rest of the API. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ObjectAuthTest {

    @Test
    void noKeyOrAnUnknownKeyIsRefused() {
        create(given(), "someone/p").statusCode(401).body("reason", notNullValue());
        create(given().header("Authorization", "Bearer no-such-key"), "someone/p").statusCode(401);
    }

    @Test
    void aRevokedKeyIsRefused() {
        String user = TestIdentities.unique("revoked");
        String key = TestIdentities.userWithKey(user);
        create(bearer(key), user + "/p").statusCode(200);
        TestIdentities.revoke(key);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> create(bearer(key), user + "/p").statusCode(401));
    }

    @Test
    void anotherTeamsProjectIsForbidden() {
        String outsider = TestIdentities.unique("outsider");
        String key = TestIdentities.userWithKey(outsider);
        String team = TestIdentities.unique("team");
        String member = TestIdentities.unique("member");
        TestIdentities.userWithKey(member);
        TestIdentities.team(team, member);
        create(bearer(key), team + "/p").statusCode(403);
        given().spec(bearer(key)).contentType(ContentType.JSON)
                .body(Map.of("table", Map.of("project_id", team + "/p", "rows", java.util.List.of())))
                .post("/table/create").then().statusCode(403);
    }

    @Test
    void basicAndBearerAreBothAccepted() {
        String user = TestIdentities.unique("both");
        String key = TestIdentities.userWithKey(user);
        String basic = Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));
        create(given().header("Authorization", "Basic " + basic), user + "/p").statusCode(200);
        create(bearer(key), user + "/p").statusCode(200);
    }

    private static RequestSpecification bearer(String key) {
        return given().header("Authorization", "Bearer " + key);
    }

    private static ValidatableResponse create(RequestSpecification request, String project) {
        return request.contentType(ContentType.JSON)
                .body(Map.of("obj", Map.of("project_id", project, "object_id", "o", "val", Map.of("a", 1))))
                .post("/obj/create").then();
    }
}
