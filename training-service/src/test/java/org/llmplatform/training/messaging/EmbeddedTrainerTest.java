package org.llmplatform.training.messaging;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.Topics;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.Topic;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.service.AdapterStorage;

/** The embedded trainer as a real consumer of training.jobs.requested, reporting through real Kafka topics. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EmbeddedTrainerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    AdapterStorage adapters;

    private String key;
    private String modelId;

    @BeforeEach
    void registerModel() {
        String user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent", TrainingApi.EMBEDDED_BASE_MODEL);
    }

    @Test
    void aJobIsTrainedAndItsCheckpointStoredAnnouncedAndRegisteredBeforeItEnds() {
        String jobId = createJob(2, 4, 16, 1);

        awaitStatus(jobId, "COMPLETED");

        JsonPath events = events(jobId);
        assertEquals(List.of("training_started", "gradient_step", "gradient_step", "training_ended"), events.getList("data.type"));
        assertEquals(2, events.getInt("data[0].data.num_sequences"));
        Map<String, Object> step = events.getMap("data[1].data");
        for (String metric : List.of("step", "loss", "policy_loss", "grad_norm", "entropy", "learning_rate", "num_trainable_tokens",
                "reward", "reward_std_dev", "num_groups_submitted", "num_groups_trainable", "num_trajectories")) {
            assertTrue(step.get(metric) instanceof Number, metric + " in " + step);
        }
        assertEquals(1, ((Number) step.get("step")).intValue());
        as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId).then()
                .body("data[0].step", equalTo(1))
                .body("data[0].metrics.'train/num_gradient_steps'", equalTo(2.0f));

        JsonNode saved = checkpointSaved(jobId);
        assertEquals(1, saved.get("step").asInt());
        assertEquals("agent", saved.get("model_name").asText());
        assertEquals(TrainingApi.EMBEDDED_BASE_MODEL, saved.get("base_model").asText());
        LoraAdapter adapter = adapters.load(saved.get("artifact_uri").asText()).await().atMost(Duration.ofSeconds(10));
        assertEquals(8, adapter.rank());
        assertEquals(16.0, adapter.alpha());

        JsonNode stepZero = Trainer.records(Topics.TRAINING_CHECKPOINTS, modelId).stream().map(record -> Trainer.json(record.value()))
                .filter(record -> record.get("step").asInt() == 0).findFirst().orElseThrow();
        assertTrue(stepZero.get("artifact_uri").isNull(), "step 0 is the base model without adapter");
    }

    @Test
    void theNextJobStartsFromThePreviousCheckpointAndARedeliveredRequestIsNotTrainedAgain() {
        String first = createJob(2, 4, 12, 2);
        awaitStatus(first, "COMPLETED");
        int firstEvents = events(first).getList("data").size();
        Topic.send(Topics.TRAINING_JOBS_REQUESTED, modelId, Trainer.awaitRequest(first).value());

        String second = createJob(2, 4, 12, 3);
        awaitStatus(second, "COMPLETED");

        JsonNode request = Trainer.json(Trainer.awaitRequest(second).value());
        assertEquals(1, request.get("parent_step").asInt());
        assertEquals(checkpointSaved(first).get("artifact_uri").asText(), request.get("parent_artifact_uri").asText());
        assertEquals(2, checkpointSaved(second).get("step").asInt());
        assertEquals(firstEvents, events(first).getList("data").size());
        assertEquals(1, Trainer.records(Topics.TRAINING_CHECKPOINTS, first).size(), "the redelivered job saved nothing more");
    }

    /** The trainer may finish before the cancel reaches it; what it saved then must never count. */
    @Test
    void aCancelledJobNeverBecomesAStepAndTheNextJobTrainsThatStep() {
        String cancelled = createJob(6, 8, 48, 4);
        awaitStatus(cancelled, "RUNNING");
        as(key).post("/v1/preview/training-jobs/{id}/cancel", cancelled).then().statusCode(200).body("status", equalTo("CANCELLED"));

        String next = createJob(1, 4, 8, 5);
        awaitStatus(next, "COMPLETED");

        assertEquals(0, Trainer.json(Trainer.awaitRequest(next).value()).get("parent_step").asInt(),
                "the cancelled job's step is trained again by the next job");
        assertEquals(1, checkpointSaved(next).get("step").asInt());
        List<String> types = events(cancelled).getList("data.type", String.class);
        assertEquals("training_failed", types.get(types.size() - 1));
        assertTrue(types.stream().noneMatch("training_ended"::equals), types.toString());
    }

    @Test
    void aMalformedRequestGoesToTheDeadLetterTopicAndTheTrainerMovesOn() {
        String garbage = "not a job " + UUID.randomUUID();
        Topic.send(Topics.TRAINING_JOBS_REQUESTED, modelId, garbage);

        String jobId = createJob(1, 4, 8, 6);

        awaitStatus(jobId, "COMPLETED");
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> assertTrue(Topic.readAll(Topics.deadLetter(Topics.TRAINING_JOBS_REQUESTED))
                .stream().anyMatch(record -> garbage.equals(record.value()))));
    }

    /** A job on {@code groups} groups of stories sampled from the base model, rewarded 0, 1, 0, 1, … within each group. */
    @SuppressWarnings("unchecked")
    private String createJob(int groups, int perGroup, int maxTokens, long seed) {
        List<Map<String, Object>> sampled = Rollouts.sample(null, groups, perGroup, maxTokens, seed);
        for (Map<String, Object> group : sampled) {
            List<Map<String, Object>> trajectories = (List<Map<String, Object>>) group.get("trajectories");
            for (int i = 0; i < trajectories.size(); i++) {
                trajectories.get(i).put("reward", (double) (i % 2));
            }
        }
        return as(key).body(Map.of("model_id", modelId, "trajectory_groups", sampled))
                .post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
    }

    private JsonNode checkpointSaved(String jobId) {
        List<ConsumerRecord<String, String>> records = Trainer.records(Topics.TRAINING_CHECKPOINTS, jobId);
        assertEquals(1, records.size(), "one checkpoint of job " + jobId);
        JsonNode saved = Trainer.json(records.get(0).value());
        assertNotNull(saved.get("artifact_uri"));
        return saved;
    }

    private void awaitStatus(String jobId, String status) {
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                as(key).get("/v1/preview/training-jobs/{id}", jobId).then().statusCode(200).body("status", equalTo(status)));
    }

    private JsonPath events(String jobId) {
        return as(key).get("/v1/preview/training-jobs/{id}/events?limit=100", jobId).then().statusCode(200).extract().jsonPath();
    }
}
