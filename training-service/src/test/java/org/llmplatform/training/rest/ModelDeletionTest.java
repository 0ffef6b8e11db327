package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
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

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ModelDeletionTest {

    private String user;
    private String key;
    private String modelId;

    /** A model with steps 0 to 3. */
    @BeforeEach
    void registerModelWithFourCheckpoints() {
        user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent");
        for (int step = 1; step <= 3; step++) {
            CheckpointEvents.publishSaved(modelId, step, Map.of());
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data", hasSize(4)));
    }

    @Test
    void deletingAModelDeletesItsCheckpointsAndFreesItsName() {
        as(key).delete("/v1/preview/models/{id}", modelId)
                .then().statusCode(200)
                .body("model_id", equalTo(modelId))
                .body("deleted_checkpoints", equalTo(4))
                .body("deleted_run", equalTo(false));

        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().statusCode(404);
        String again = TrainingApi.registerModel(key, user, "rl", "agent");
        as(key).get("/v1/preview/models/{id}/checkpoints", again).then().statusCode(200).body("data.step", contains(0));
    }

    @Test
    void aRetriedDeleteAnswersLikeTheFirstWithNothingLeft() {
        as(key).delete("/v1/preview/models/{id}", modelId).then().statusCode(200);

        as(key).delete("/v1/preview/models/{id}", modelId)
                .then().statusCode(200).body("model_id", equalTo(modelId)).body("deleted_checkpoints", equalTo(0));
    }

    @Test
    void anotherUsersModelCannotBeDeleted() {
        String outsiderKey = TestIdentities.userWithKey(TestIdentities.unique("eve"));

        as(outsiderKey).delete("/v1/preview/models/{id}", modelId).then().statusCode(404);
        as(key).delete("/v1/preview/models/{id}", modelId).then().statusCode(200);
        as(outsiderKey).delete("/v1/preview/models/{id}", modelId).then().statusCode(404);
        as(key).delete("/v1/preview/models/{id}", UUID.randomUUID()).then().statusCode(404);
        as(key).delete("/v1/preview/models/{id}", "not-an-id").then().statusCode(404).body("detail", containsString("not-an-id"));
    }

    @Test
    void checkpointStepsAreDeletedAndTheMissingOnesReported() {
        as(key).body(Map.of("steps", List.of(1, 2, 7))).delete("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(200)
                .body("deleted_count", equalTo(2))
                .body("not_found_steps", contains(7));

        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data.step", contains(0, 3));
    }

    @Test
    void theLatestCheckpointCannotBeDeleted() {
        as(key).body(Map.of("steps", List.of(0, 3))).delete("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(409).body("detail", containsString("Step 3 is the latest"));

        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data", hasSize(4));
    }

    @Test
    void deletingCheckpointsNeedsTheirSteps() {
        as(key).body(Map.of()).delete("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(422).body("detail[0].loc", contains("body", "steps")).body("detail[0].type", equalTo("missing"));
        as(key).body(Map.of("steps", List.of("first"))).delete("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(422).body("detail[0].loc", contains("body", "steps", 0));
    }
}
