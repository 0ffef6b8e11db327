package org.llmplatform.training.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.llmplatform.training.TrainingApi.BASE_MODEL;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.TrainingApi;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ModelApiTest {

    /** The second trainable base model of the test profile. */
    private static final String SECOND_BASE_MODEL = TrainingApi.EMBEDDED_BASE_MODEL;

    @Test
    void aModelRegisteredWithoutEntityBelongsToTheCaller() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);

        String id = as(key).body(Map.of("project", "rl", "name", "agent-001", "base_model", BASE_MODEL))
                .post("/v1/preview/models")
                .then().statusCode(200)
                .body("entity", equalTo(user))
                .body("project", equalTo("rl"))
                .body("name", equalTo("agent-001"))
                .body("base_model", equalTo(BASE_MODEL))
                .body("run_id", nullValue())
                .body("$", hasKey("run_id"))
                .extract().path("id");
        UUID.fromString(id);
    }

    @Test
    void registeringAModelRegistersItsUntrainedStepZero() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        String id = TrainingApi.registerModel(key, user, "rl", "agent");

        as(key).get("/v1/preview/models/{id}/checkpoints", id)
                .then().statusCode(200)
                .body("object", equalTo("list"))
                .body("data", hasSize(1))
                .body("data[0].step", equalTo(0))
                .body("data[0].metrics", equalTo(Map.of()))
                .body("data[0].id", notNullValue())
                .body("has_more", equalTo(false));
    }

    @Test
    void returnExistingGivesTheSameModelEveryTime() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);

        String first = TrainingApi.registerModel(key, user, "rl", "agent");
        String second = TrainingApi.registerModel(key, user, "rl", "agent");

        assertEquals(first, second);
        as(key).get("/v1/preview/models/{id}/checkpoints", first).then().statusCode(200).body("data", hasSize(1));
    }

    @Test
    void registeringATakenNameWithoutReturnExistingIsAConflict() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        TrainingApi.registerModel(key, user, "rl", "agent");

        as(key).body(Map.of("entity", user, "project", "rl", "name", "agent", "base_model", BASE_MODEL))
                .post("/v1/preview/models")
                .then().statusCode(409).body("detail", containsString("already exists"));
    }

    @Test
    void returnExistingWithAnotherBaseModelIsAConflict() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        TrainingApi.registerModel(key, user, "rl", "agent");

        as(key).body(Map.of("project", "rl", "name", "agent", "base_model", SECOND_BASE_MODEL, "return_existing", true))
                .post("/v1/preview/models")
                .then().statusCode(409).body("detail", containsString("base_model '" + BASE_MODEL + "'"));
    }

    @Test
    void theSameNameInAnotherProjectIsAnotherModel() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);

        String first = TrainingApi.registerModel(key, user, "rl", "agent");
        String second = TrainingApi.registerModel(key, user, "rl-2", "agent");

        assertNotEquals(first, second);
    }

    @Test
    void unknownRequestFieldsAreIgnored() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);

        as(key).body(Map.of("project", "rl", "name", "agent", "base_model", BASE_MODEL, "return_existing", true,
                        "model_id", "whatever", "config", Map.of("a", 1)))
                .post("/v1/preview/models")
                .then().statusCode(200).body("name", equalTo("agent"));
    }

    @Test
    void missingFieldsAreEachNamedInA422() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).body(Map.of("name", "agent"))
                .post("/v1/preview/models")
                .then().statusCode(422)
                .body("detail.loc", contains(List.of("body", "project"), List.of("body", "base_model")))
                .body("detail[0].type", equalTo("missing"))
                .body("detail[0].msg", equalTo("Field required"));
    }

    @Test
    void aFieldOfTheWrongTypeIsNamedInA422() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).body(Map.of("project", "rl", "name", "agent", "base_model", BASE_MODEL, "return_existing", List.of(1)))
                .post("/v1/preview/models")
                .then().statusCode(422).body("detail[0].loc", contains("body", "return_existing"));
    }

    @Test
    void aNameWithSlashesIsRefusedNamingTheField() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).body(Map.of("project", "rl", "name", "a/b", "base_model", BASE_MODEL))
                .post("/v1/preview/models")
                .then().statusCode(422)
                .body("detail[0].type", equalTo("string_pattern_mismatch"))
                .body("detail[0].loc", contains("body", "name"));
    }

    @Test
    void aBaseModelNoTrainerCanTrainIsRefusedNamingTheField() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).body(Map.of("project", "rl", "name", "agent", "base_model", "OpenPipe/Qwen3-14B-Instruct"))
                .post("/v1/preview/models")
                .then().statusCode(422)
                .body("detail[0].type", equalTo("literal_error"))
                .body("detail[0].loc", contains("body", "base_model"))
                .body("detail[0].msg", containsString("'" + BASE_MODEL + "'"));
    }

    @Test
    void theBaseModelsAreTheConfiguredTrainableOnes() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).get("/v1/preview/base-models").then().statusCode(200).body("$", hasItem(BASE_MODEL));
    }

    @Test
    void anUnknownModelIdIsNotFound() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).get("/v1/preview/models/{id}/checkpoints", UUID.randomUUID())
                .then().statusCode(404).body("detail", containsString("not found"));
        as(key).get("/v1/preview/models/{id}/checkpoints", "not-a-uuid")
                .then().statusCode(404).body("detail", containsString("not-a-uuid"));
    }

    @Test
    void aMemberRegistersModelsInItsTeamsEntity() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        String team = TestIdentities.unique("lab");
        TestIdentities.team(team, user);

        as(key).body(Map.of("entity", team, "project", "rl", "name", "agent", "base_model", BASE_MODEL))
                .post("/v1/preview/models")
                .then().statusCode(200).body("entity", equalTo(team));
    }

    @Test
    void theBootstrapAdministratorMustNameTheEntity() {
        given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY).contentType("application/json")
                .body(Map.of("project", "rl", "name", "agent", "base_model", BASE_MODEL))
                .post("/v1/preview/models")
                .then().statusCode(422).body("detail[0].loc", contains("body", "entity"));
    }

    @Test
    void healthNeedsNoKey() {
        given().get("/v1/health").then().statusCode(200).body("status", equalTo("ok"));
        given().get("/health").then().statusCode(200).body("status", equalTo("ok"));
    }

    @Test
    void anUnknownRouteIsAFastApiNotFound() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("ada"));

        as(key).get("/v1/preview/nothing-here").then().statusCode(404).body("detail", equalTo("Not Found"));
    }
}
