package org.llmplatform.training.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.llmplatform.training.TrainingApi.BASE_MODEL;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.auth.ApiKeys;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.TrainingApi;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AuthenticationTest {

    private static Map<String, Object> model(String entity) {
        return Map.of("entity", entity, "project", "rl", "name", "agent", "base_model", BASE_MODEL, "return_existing", true);
    }

    @Test
    void aRequestWithoutKeyIsRefused() {
        given().contentType(ContentType.JSON).body(model("someone"))
                .post("/v1/preview/models")
                .then().statusCode(401).body("detail", containsString("Missing API key"));
        given().get("/v1/preview/base-models").then().statusCode(401);
    }

    @Test
    void anUnknownKeyIsRefused() {
        as(ApiKeys.generate()).body(model("someone"))
                .post("/v1/preview/models")
                .then().statusCode(401).body("detail", equalTo("Invalid API key"));
    }

    @Test
    void aRevokedKeyIsRefused() {
        String user = TestIdentities.unique("rev");
        String key = TestIdentities.userWithKey(user);
        as(key).body(model(user)).post("/v1/preview/models").then().statusCode(200);

        TestIdentities.revoke(key);

        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                as(key).body(model(user)).post("/v1/preview/models").then().statusCode(401));
    }

    @Test
    void bearerAndBasicAreBothAccepted() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        String basic = Base64.getEncoder().encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8));

        String viaBearer = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(model(user))
                .post("/v1/preview/models").then().statusCode(200).extract().path("id");
        given().header("Authorization", "Basic " + basic).contentType(ContentType.JSON).body(model(user))
                .post("/v1/preview/models").then().statusCode(200).body("id", equalTo(viaBearer));
    }

    @Test
    void anotherTeamsEntityIsForbidden() {
        String outsider = TestIdentities.unique("eve");
        String outsiderKey = TestIdentities.userWithKey(outsider);
        String member = TestIdentities.unique("ada");
        TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("lab");
        TestIdentities.team(team, member);

        as(outsiderKey).body(model(team))
                .post("/v1/preview/models")
                .then().statusCode(403).body("detail", containsString(team));
    }

    /** Model ids are global, so a model the caller may not see answers exactly like one that does not exist. */
    @Test
    void anotherTeamsModelIsNotFound() {
        String member = TestIdentities.unique("ada");
        String memberKey = TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("lab");
        TestIdentities.team(team, member);
        String modelId = TrainingApi.registerModel(memberKey, team, "rl", "agent");
        String outsiderKey = TestIdentities.userWithKey(TestIdentities.unique("eve"));

        as(memberKey).get("/v1/preview/models/{id}/checkpoints", modelId).then().statusCode(200);
        as(outsiderKey).get("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(404).body("detail", equalTo("Model '" + modelId + "' not found"));
    }
}
