package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.Trajectories;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class TrainingJobApiTest {

    private String user;
    private String key;
    private String modelId;

    @BeforeEach
    void registerModel() {
        user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent");
    }

    @Test
    void aNewJobIsQueuedAndRequestedWithAReferenceToItsTrajectories() throws Exception {
        String jobId = createJob(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {1, 0})));

        as(key).get("/v1/preview/training-jobs/{id}", jobId)
                .then().statusCode(200)
                .body("status", equalTo("QUEUED"))
                .body("model_id", equalTo(modelId))
                .body("created_at", notNullValue())
                .body("training_start", nullValue())
                .body("error_message", nullValue());
        ConsumerRecord<String, String> request = Trainer.awaitRequest(jobId);
        assertEquals(modelId, request.key());
        JsonNode requested = Trainer.json(request.value());
        assertEquals(0, requested.get("parent_step").asInt());
        assertEquals(user + "/rl/agent", requested.get("entity").asText() + "/" + requested.get("project").asText() + "/"
                + requested.get("model_name").asText());
        JsonNode reference = requested.get("trajectories");
        String digest = reference.get("sha256").asText();
        byte[] stored = Files.readAllBytes(Path.of("target/test-blobs/sha256", digest.substring(0, 2), digest));
        assertEquals(digest, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(stored)));
        assertEquals(stored.length, reference.get("byte_count").asLong());
        assertTrue(new String(stored).contains("\"token\":\"token_id:42\""), "the stored trajectories keep the Choice logprobs");
        assertTrue(request.value().length() < 2_000, "the request carries a reference, not the trajectories");
    }

    @Test
    void theExperimentalConfigIsResolvedWithArtsDefaults() {
        Map<String, Object> config = new HashMap<>();
        config.put("learning_rate", 1e-5);
        config.put("precalculate_logprobs", null);
        config.put("epsilon", null);
        config.put("kl_penalty_coef", null);
        config.put("some_future_key", 3);
        String jobId = createJob(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {1, 0}),
                "experimental_config", config));

        JsonNode resolved = Trainer.json(Trainer.awaitRequest(jobId).value()).get("config");
        assertEquals(1e-5, resolved.get("learning_rate").asDouble());
        assertEquals("cispo", resolved.get("loss_fn").asText());
        assertEquals(1.0, resolved.get("epsilon").asDouble());
        assertEquals(4.0, resolved.get("epsilon_high").asDouble());
        assertEquals("token", resolved.get("importance_sampling_level").asText());
        assertTrue(resolved.get("scale_rewards").asBoolean());
        assertEquals(0.0, resolved.get("kl_penalty_coef").asDouble());
        assertEquals(1024, resolved.get("logprob_calculation_chunk_size").asInt());
    }

    @Test
    void ppoTakesItsOwnClipDefaults() {
        String jobId = createJob(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {1, 0}),
                "experimental_config", Map.of("ppo", true)));

        JsonNode resolved = Trainer.json(Trainer.awaitRequest(jobId).value()).get("config");
        assertEquals("ppo", resolved.get("loss_fn").asText());
        assertEquals(0.2, resolved.get("epsilon").asDouble());
        assertEquals(0.2, resolved.get("epsilon_high").asDouble());
        assertEquals(5e-6, resolved.get("learning_rate").asDouble());
    }

    @Test
    void aRetriedCreateReturnsTheSameUnfinishedJob() {
        Map<String, Object> body = Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {0.3, 0.6}));

        assertEquals(createJob(body), createJob(body));
    }

    @Test
    void badBodiesAreNamedInA422() {
        as(key).body(Map.of()).post("/v1/preview/training-jobs")
                .then().statusCode(422)
                .body("detail.loc", contains(List.of("body", "model_id"), List.of("body", "trajectory_groups")));
        as(key).body(Map.of("model_id", "model-7", "trajectory_groups", List.of())).post("/v1/preview/training-jobs")
                .then().statusCode(422).body("detail[0].type", equalTo("uuid_parsing")).body("detail[0].loc", contains("body", "model_id"));
        as(key).body(Map.of("model_id", modelId, "trajectory_groups", List.of(), "experimental_config", Map.of("loss_fn", "dpo")))
                .post("/v1/preview/training-jobs")
                .then().statusCode(422).body("detail[0].type", equalTo("literal_error"))
                .body("detail[0].loc", contains("body", "experimental_config", "loss_fn"));
        as(key).body(Map.of("model_id", modelId, "trajectory_groups", List.of(), "experimental_config", Map.of("learning_rate", "fast")))
                .post("/v1/preview/training-jobs")
                .then().statusCode(422).body("detail[0].loc", contains("body", "experimental_config", "learning_rate"));
    }

    @Test
    void unknownModelsAndJobsAreNotFound() {
        as(key).body(Map.of("model_id", UUID.randomUUID().toString(), "trajectory_groups", List.of())).post("/v1/preview/training-jobs")
                .then().statusCode(404).body("detail", containsString("not found"));
        as(key).get("/v1/preview/training-jobs/{id}", UUID.randomUUID()).then().statusCode(404);
        as(key).get("/v1/preview/training-jobs/{id}", "job-1").then().statusCode(404).body("detail", containsString("job-1"));
        as(key).get("/v1/preview/training-jobs/{id}/events", UUID.randomUUID()).then().statusCode(404);
    }

    @Test
    void anotherUsersJobIsNotFound() {
        String jobId = createJob(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {1, 0})));
        String outsiderKey = TestIdentities.userWithKey(TestIdentities.unique("eve"));

        as(outsiderKey).get("/v1/preview/training-jobs/{id}", jobId).then().statusCode(404);
        as(outsiderKey).get("/v1/preview/training-jobs/{id}/events", jobId).then().statusCode(404);
        as(outsiderKey).post("/v1/preview/training-jobs/{id}/cancel", jobId).then().statusCode(404);
        as(outsiderKey).body(Map.of("model_id", modelId, "trajectory_groups", List.of())).post("/v1/preview/training-jobs")
                .then().statusCode(404);
    }

    @Test
    void badEventPageParametersAreNamedInA422() {
        String jobId = createJob(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {1, 0})));

        as(key).get("/v1/preview/training-jobs/{id}/events?limit=0", jobId).then().statusCode(422).body("detail[0].loc", contains("query", "limit"));
        as(key).get("/v1/preview/training-jobs/{id}/events?limit=101", jobId).then().statusCode(422);
        as(key).get("/v1/preview/training-jobs/{id}/events?after=" + UUID.randomUUID(), jobId)
                .then().statusCode(422).body("detail[0].loc", contains("query", "after"));
    }

    private String createJob(Map<String, Object> body) {
        return as(key).body(body).post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
    }
}
