package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.CheckpointEvents;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.Trajectories;

/** The read endpoints the console's training page needs beyond W&B's: a project's models and a model's jobs. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ProjectModelsAndJobsTest {

    private String user;
    private String key;

    @BeforeEach
    void signUp() {
        user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
    }

    @Test
    void aProjectsModelsComeInRegistrationOrderWithTheirLatestStep() {
        String first = TrainingApi.registerModel(key, user, "rl", "agent-a");
        String second = TrainingApi.registerModel(key, user, "rl", "agent-b");
        TrainingApi.registerModel(key, user, "other-project", "agent-c");
        CheckpointEvents.publishSaved(second, 1, Map.of("train/reward", 0.5));
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> as(key)
                .get("/v1/preview/models?project=rl&entity=" + user).then().statusCode(200)
                .body("data.latest_step", contains(0, 1)));

        JsonPath all = as(key).get("/v1/preview/models?project=rl").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(first, second), all.getList("data.id"));
        assertEquals(List.of("agent-a", "agent-b"), all.getList("data.name"));
        assertEquals(TrainingApi.BASE_MODEL, all.getString("data[0].base_model"));
        assertEquals(user, all.getString("data[0].entity"));
        assertTrue(all.getString("data[0].created_at").matches("\\d{4}-\\d\\d-\\d\\dT.*"), all.prettify());
        assertFalse(all.getBoolean("has_more"));

        JsonPath newest = as(key).get("/v1/preview/models?project=rl&order=desc&limit=1").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(second), newest.getList("data.id"));
        assertTrue(newest.getBoolean("has_more"));
        JsonPath rest = as(key).get("/v1/preview/models?project=rl&order=desc&after=" + newest.getString("last_id"))
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(first), rest.getList("data.id"));
        assertFalse(rest.getBoolean("has_more"));

        as(key).get("/v1/preview/models?project=nothing-here").then().statusCode(200).body("data", hasSize(0));
    }

    @Test
    void badModelListQueriesAreNamedAndOtherEntitiesAreRefused() {
        as(key).get("/v1/preview/models").then().statusCode(422).body("detail[0].loc", contains("query", "project"));
        as(key).get("/v1/preview/models?project=a b").then().statusCode(422).body("detail[0].loc", contains("query", "project"));
        as(key).get("/v1/preview/models?project=rl&limit=0").then().statusCode(422).body("detail[0].loc", contains("query", "limit"));
        String elsewhere = TrainingApi.registerModel(key, user, "elsewhere", "agent");
        as(key).get("/v1/preview/models?project=rl&after=" + elsewhere).then().statusCode(422)
                .body("detail[0].loc", contains("query", "after")).body("detail[0].msg", containsString("not a model of project"));
        String outsider = TestIdentities.unique("eve");
        as(TestIdentities.userWithKey(outsider)).get("/v1/preview/models?project=rl&entity=" + user).then().statusCode(403)
                .body("detail", containsString(user));
    }

    @Test
    void aModelsJobsComeOldestFirstOrNewestFirst() {
        String modelId = TrainingApi.registerModel(key, user, "rl", "agent");
        String firstJob = createJob(modelId, 1);
        String secondJob = createJob(modelId, 2);

        as(key).get("/v1/preview/models/{id}/training-jobs", modelId).then().statusCode(200)
                .body("data.id", contains(firstJob, secondJob))
                .body("data[1].status", equalTo("QUEUED"))
                .body("data[1].model_id", equalTo(modelId))
                .body("data[0].created_at", notNullValue())
                .body("has_more", equalTo(false));
        JsonPath newest = as(key).get("/v1/preview/models/{id}/training-jobs?order=desc&limit=1", modelId).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of(secondJob), newest.getList("data.id"));
        assertTrue(newest.getBoolean("has_more"));
        as(key).get("/v1/preview/models/{id}/training-jobs?order=desc&after=" + newest.getString("last_id"), modelId)
                .then().statusCode(200).body("data.id", contains(firstJob)).body("has_more", equalTo(false));
    }

    @Test
    void jobsOfUnknownOrHiddenModelsAreNotFoundAndForeignCursorsAreNamed() {
        String modelId = TrainingApi.registerModel(key, user, "rl", "agent");
        String otherModel = TrainingApi.registerModel(key, user, "rl", "other");
        String otherJob = createJob(otherModel, 1);

        as(key).get("/v1/preview/models/{id}/training-jobs", UUID.randomUUID()).then().statusCode(404);
        as(key).get("/v1/preview/models/{id}/training-jobs", "not-an-id").then().statusCode(404).body("detail", containsString("not-an-id"));
        as(TestIdentities.userWithKey(TestIdentities.unique("eve"))).get("/v1/preview/models/{id}/training-jobs", modelId)
                .then().statusCode(404);
        as(key).get("/v1/preview/models/{id}/training-jobs?after=" + otherJob, modelId).then().statusCode(422)
                .body("detail[0].loc", contains("query", "after"));
        as(key).get("/v1/preview/models/{id}/training-jobs?order=sideways", modelId).then().statusCode(422)
                .body("detail[0].loc", contains("query", "order"));
    }

    @Test
    void checkpointsSayWhenTheyWereSaved() {
        String modelId = TrainingApi.registerModel(key, user, "rl", "agent");
        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().statusCode(200)
                .body("data[0].step", equalTo(0))
                .body("data[0].created_at", notNullValue());
    }

    private String createJob(String modelId, double reward) {
        return as(key).body(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {reward, 0})))
                .post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
    }
}
