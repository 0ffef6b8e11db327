package org.llmplatform.training.messaging;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Topic;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.Trajectories;

/** The job protocol over real Kafka topics, with the test as the trainer worker. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class JobProtocolTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

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
    void aTrainedJobShowsItsEventsInOrderAndItsNewCheckpoint() {
        String jobId = createJob(0.5);

        Trainer.train(modelId, jobId, 2);

        awaitStatus(jobId, "COMPLETED");
        JsonPath events = events(jobId, "");
        assertEquals(List.of("training_started", "gradient_step", "gradient_step", "training_ended"), events.getList("data.type"));
        assertEquals(2, events.getInt("data[0].data.num_sequences"));
        assertEquals(Map.of("step", 2, "loss", 0.5f), events.getMap("data[2].data"));
        as(key).get("/v1/preview/training-jobs/{id}", jobId).then()
                .body("training_start", notNullValue()).body("training_end", notNullValue());
        as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId).then().body("data[0].step", equalTo(1));
    }

    @Test
    void eventsPageThroughTheAfterCursor() {
        String jobId = createJob(0.5);
        Trainer.train(modelId, jobId, 3);
        awaitStatus(jobId, "COMPLETED");

        JsonPath first = events(jobId, "?limit=2");
        assertEquals(List.of("training_started", "gradient_step"), first.getList("data.type"));
        assertTrue(first.getBoolean("has_more"));
        JsonPath rest = events(jobId, "?after=" + first.getString("last_id"));
        assertEquals(List.of("gradient_step", "gradient_step", "training_ended"), rest.getList("data.type"));
        assertEquals(false, rest.getBoolean("has_more"));
    }

    @Test
    void redeliveredAndStaleEventsAreDroppedAndGradientDataKeptNumeric() {
        String jobId = createJob(0.5);
        Trainer.awaitRequest(jobId);

        Trainer.emit(modelId, jobId, 1, "training_started", Map.of("num_sequences", 2));
        Trainer.emit(modelId, jobId, 1, "training_started", Map.of("num_sequences", 2));
        Trainer.emit(modelId, jobId, 3, "gradient_step", Map.of("step", 2, "loss", 0.25, "note", "text", "clipped", true));
        Trainer.emit(modelId, jobId, 2, "gradient_step", Map.of("step", 1, "loss", 0.5));
        Trainer.emit(modelId, jobId, 4, "training_started", Map.of("num_sequences", 9));
        Trainer.emit(modelId, jobId, 5, "training_failed", Map.of("error_message", "CUDA out of memory"));

        awaitStatus(jobId, "FAILED");
        JsonPath events = events(jobId, "");
        assertEquals(List.of("training_started", "gradient_step", "training_failed"), events.getList("data.type"));
        assertEquals(Map.of("step", 2, "loss", 0.25f, "clipped", 1), events.getMap("data[1].data"));
        assertEquals("CUDA out of memory", events.getString("data[2].data.error_message"));
        as(key).get("/v1/preview/training-jobs/{id}", jobId).then().body("error_message", equalTo("CUDA out of memory"));
    }

    @Test
    void theEndIsShownOnlyOnceTheNewCheckpointIsRegistered() throws InterruptedException {
        String jobId = createJob(0.5);
        Trainer.awaitRequest(jobId);
        Trainer.emit(modelId, jobId, 1, "training_started", Map.of("num_sequences", 0));
        Trainer.emit(modelId, jobId, 2, "training_ended", Map.of());

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> as(key).get("/v1/preview/training-jobs/{id}", jobId)
                .then().body("status", equalTo("RUNNING")));
        Thread.sleep(500);
        assertEquals(List.of("training_started"), events(jobId, "").getList("data.type"));

        Trainer.saveCheckpoint(modelId, jobId, 1);
        awaitStatus(jobId, "COMPLETED");
        assertEquals(List.of("training_started", "training_ended"), events(jobId, "").getList("data.type"));
    }

    @Test
    void jobsOfOneModelRunOneAfterAnother() throws InterruptedException {
        String first = createJob(0.1);
        String second = createJob(0.2);
        Trainer.awaitRequest(first);
        Thread.sleep(500);
        assertTrue(Trainer.request(second).isEmpty(), "the second job was handed out while the first was unfinished");
        as(key).get("/v1/preview/training-jobs/{id}", second).then().body("status", equalTo("QUEUED"));

        Trainer.train(modelId, first, 1);

        JsonNode request = Trainer.json(Trainer.awaitRequest(second).value());
        assertEquals(1, request.get("parent_step").asInt());
        assertEquals("file:///checkpoints/" + modelId + "/step1", request.get("parent_artifact_uri").asText());
    }

    @Test
    void cancellingEndsTheJobTellsTheTrainerAndLetsTheNextGo() {
        String cancelled = createJob(0.1);
        String next = createJob(0.2);
        Trainer.awaitRequest(cancelled);
        Trainer.emit(modelId, cancelled, 1, "training_started", Map.of("num_sequences", 1));
        awaitStatus(cancelled, "RUNNING");

        as(key).post("/v1/preview/training-jobs/{id}/cancel", cancelled)
                .then().statusCode(200).body("status", equalTo("CANCELLED")).body("training_end", notNullValue());
        as(key).post("/v1/preview/training-jobs/{id}/cancel", cancelled).then().statusCode(200).body("status", equalTo("CANCELLED"));

        assertEquals(List.of("training_started", "training_failed"), events(cancelled, "").getList("data.type"));
        ConsumerRecord<String, String> order = Trainer.awaitCancel(cancelled);
        assertEquals(modelId, order.key());
        assertEquals("cancel", Trainer.json(order.value()).get("action").asText());
        assertEquals(0, Trainer.json(Trainer.awaitRequest(next).value()).get("parent_step").asInt());

        Trainer.saveCheckpoint(modelId, cancelled, 1, 9.0);
        Trainer.train(modelId, next, 1);
        awaitStatus(next, "COMPLETED");
        as(key).post("/v1/preview/training-jobs/{id}/cancel", next).then().statusCode(409).body("detail", containsString("COMPLETED"));
        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data.step", contains(0, 1))
                .body("data[1].metrics.'train/loss'", equalTo(0.5f));
    }

    @Test
    void deletingAModelCancelsItsUnfinishedJobs() {
        String running = createJob(0.1);
        String waiting = createJob(0.2);
        Trainer.awaitRequest(running);

        as(key).delete("/v1/preview/models/{id}", modelId).then().statusCode(200);

        assertEquals("cancel", Trainer.json(Trainer.awaitCancel(running).value()).get("action").asText());
        as(key).get("/v1/preview/training-jobs/{id}", running).then().statusCode(404);
        assertTrue(Trainer.request(waiting).isEmpty(), "a job of a deleted model was handed out");
        assertTrue(Trainer.records(Topics.TRAINING_JOBS_CONTROL, waiting).isEmpty(), "a job no trainer had was cancelled on the topic");
    }

    @Test
    void aTrainerThatFallsSilentFailsTheJob() {
        String jobId = createJob(0.5);
        Trainer.awaitRequest(jobId);
        Trainer.emit(modelId, jobId, 1, "training_started", Map.of("num_sequences", 5));
        Trainer.emit(modelId, jobId, 2, "heartbeat", Map.of());

        awaitStatus(jobId, "FAILED");
        JsonPath events = events(jobId, "");
        assertEquals(List.of("training_started", "training_failed"), events.getList("data.type"));
        assertTrue(events.getString("data[1].data.error_message").contains("presumed gone"));
        Trainer.awaitCancel(jobId);
    }

    @Test
    void eachNewCheckpointIsLinkedAndAliasedOnArtifactEvents() {
        String jobId = createJob(0.5);
        Trainer.train(modelId, jobId, 1);
        awaitStatus(jobId, "COMPLETED");

        String collection = user + "/rl/agent";
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> {
            List<JsonNode> announced = Trainer.records(Topics.ARTIFACT_EVENTS, modelId).stream()
                    .filter(record -> collection.equals(record.key()))
                    .map(record -> Trainer.json(record.value()))
                    .filter(event -> event.get("version").asText().equals("v1"))
                    .toList();
            assertEquals(List.of("LINK_ARTIFACT", "ADD_ARTIFACT_ALIAS"), announced.stream().map(event -> event.get("event_type").asText()).toList());
            assertEquals("agent", announced.get(0).get("collection").asText());
            assertEquals(List.of("latest", "step1"), List.of(announced.get(1).get("aliases").get(0).asText(), announced.get(1).get("aliases").get(1).asText()));
        });
        assertEquals(2, Trainer.records(Topics.ARTIFACT_EVENTS, modelId).stream()
                .filter(record -> Trainer.json(record.value()).get("version").asText().equals("v0")).count(), "step 0 is announced at registration");
    }

    @Test
    void aMalformedEventGoesToTheDeadLetterTopicAndTheConsumerMovesOn() {
        String jobId = createJob(0.5);
        Trainer.awaitRequest(jobId);
        String garbage = "not an event " + UUID.randomUUID();
        Topic.send(Topics.TRAINING_JOBS_EVENTS, modelId, garbage);
        Trainer.emit(modelId, jobId, 1, "training_started", Map.of("sequences", 2));
        Trainer.emit(modelId, jobId, 2, "training_started", Map.of("num_sequences", 2));

        awaitStatus(jobId, "RUNNING");
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> deadLetters = Topic.readAll(Topics.deadLetter(Topics.TRAINING_JOBS_EVENTS));
            assertTrue(deadLetters.stream().anyMatch(record -> garbage.equals(record.value())));
            assertTrue(deadLetters.stream().anyMatch(record -> record.value().contains(jobId) && record.value().contains("\"sequences\"")));
        });
    }

    private String createJob(double reward) {
        return as(key).body(Map.of("model_id", modelId, "trajectory_groups", Trajectories.groupsOfRewards(new double[] {reward, 1 - reward, 0.0})))
                .post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
    }

    private void awaitStatus(String jobId, String status) {
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                as(key).get("/v1/preview/training-jobs/{id}", jobId).then().statusCode(200).body("status", equalTo(status)));
    }

    private JsonPath events(String jobId, String query) {
        return as(key).get("/v1/preview/training-jobs/{id}/events" + query, jobId)
                .then().statusCode(200).body("object", equalTo("list")).extract().jsonPath();
    }
}
