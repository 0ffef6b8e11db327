package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.CheckpointEvents;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.Trajectories;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class LogApiTest {

    private String key;
    private String modelId;

    @BeforeEach
    void registerModel() {
        String user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent");
    }

    @Test
    void loggedMetricsLandOnTheCurrentCheckpointUnderTheSplit() {
        List<Map<String, Object>> groups = List.of(
                Trajectories.group(List.of(Trajectories.trajectory(1.0, Map.of("correct", true)),
                        Trajectories.trajectory(0.0, Map.of("correct", false)))),
                Trajectories.group(List.of(Trajectories.trajectory(0.5, Map.of("correct", true)))));

        as(key).body(Map.of("model_id", modelId, "split", "val", "trajectory_groups", groups))
                .post("/v1/preview/models/{id}/log", modelId)
                .then().statusCode(200)
                .body("step", equalTo(0))
                .body("metrics.'val/reward'", equalTo(0.5f));

        as(key).get("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(200)
                .body("data[0].metrics.'val/reward'", equalTo(0.5f))
                .body("data[0].metrics.'val/correct'", equalTo(0.6666667f))
                .body("data[0].metrics.'val/reward_std_dev'", equalTo(0.5f))
                .body("data[0].metrics.'val/exception_rate'", equalTo(0.0f))
                .body("data[0].metrics.'val/data/step_num_trajectories'", equalTo(3.0f));
    }

    @Test
    void metricsGoToTheLatestStepAndOtherSplitsAreKept() {
        as(key).body(Map.of("split", "train", "trajectory_groups", Trajectories.groupsOfRewards(new double[] {0.2})))
                .post("/v1/preview/models/{id}/log", modelId).then().statusCode(200);
        CheckpointEvents.publishSaved(modelId, 1, Map.of("train/loss", 0.1));
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId).then().body("data[0].step", equalTo(1)));

        as(key).body(Map.of("split", "val", "trajectory_groups", Trajectories.groupsOfRewards(new double[] {0.9, 0.7})))
                .post("/v1/preview/models/{id}/log", modelId).then().statusCode(200).body("step", equalTo(1));

        as(key).get("/v1/preview/models/{id}/checkpoints", modelId)
                .then().statusCode(200)
                .body("data[0].metrics.'train/reward'", equalTo(0.2f))
                .body("data[1].metrics.'train/loss'", equalTo(0.1f))
                .body("data[1].metrics.'val/reward'", equalTo(0.8f));
    }

    @Test
    void aMissingSplitAndGroupsAreNamed() {
        as(key).body(Map.of()).post("/v1/preview/models/{id}/log", modelId)
                .then().statusCode(422)
                .body("detail.loc", contains(List.of("body", "split"), List.of("body", "trajectory_groups")));
    }

    @Test
    void aMetricThatIsNotANumberIsNamed() {
        List<Map<String, Object>> groups = List.of(Trajectories.group(List.of(Trajectories.trajectory(1.0, Map.of("verdict", "good")))));

        as(key).body(Map.of("split", "train", "trajectory_groups", groups)).post("/v1/preview/models/{id}/log", modelId)
                .then().statusCode(422)
                .body("detail[0].type", equalTo("float_type"))
                .body("detail[0].loc", contains("body", "trajectory_groups", 0, "trajectories", 0, "metrics", "verdict"));
    }

    @Test
    void anItemThatIsNeitherMessageNorChoiceIsNamed() {
        Map<String, Object> trajectory = Map.of("messages_and_choices", List.of(Map.of("role", "user", "content", "hi"), Map.of("text", "?")),
                "reward", 1.0);

        as(key).body(Map.of("split", "train", "trajectory_groups", List.of(Map.of("trajectories", List.of(trajectory)))))
                .post("/v1/preview/models/{id}/log", modelId)
                .then().statusCode(422)
                .body("detail[0].type", equalTo("value_error"))
                .body("detail[0].loc", contains("body", "trajectory_groups", 0, "trajectories", 0, "messages_and_choices", 1));
    }

    @Test
    void aTrajectoryWithoutMessagesIsNamed() {
        as(key).body(Map.of("split", "train", "trajectory_groups", List.of(Map.of("trajectories", List.of(Map.of("reward", 1.0))))))
                .post("/v1/preview/models/{id}/log", modelId)
                .then().statusCode(422)
                .body("detail[0].type", equalTo("missing"))
                .body("detail[0].loc", contains("body", "trajectory_groups", 0, "trajectories", 0, "messages_and_choices"));
    }

    @Test
    void loggingToAnUnknownModelIsNotFound() {
        as(key).body(Map.of("split", "train", "trajectory_groups", List.of()))
                .post("/v1/preview/models/{id}/log", java.util.UUID.randomUUID())
                .then().statusCode(404);
    }
}
