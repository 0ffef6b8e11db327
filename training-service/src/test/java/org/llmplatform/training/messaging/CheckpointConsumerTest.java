package org.llmplatform.training.messaging;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.CheckpointEvents;
import org.llmplatform.training.TrainingApi;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CheckpointConsumerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private String key;
    private String modelId;

    @BeforeEach
    void registerModel() {
        String user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent");
    }

    @Test
    void aSavedCheckpointBecomesTheLatestStepWithItsMetrics() {
        CheckpointEvents.publishSaved(modelId, 1, Map.of("train/reward", 0.75, "train/loss", 1.5));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId)
                        .then().statusCode(200)
                        .body("data[0].step", equalTo(1))
                        .body("data[0].metrics", equalTo(Map.of("train/reward", 0.75f, "train/loss", 1.5f))));
    }

    @Test
    void aRedeliveredCheckpointIsRegisteredOnce() {
        CheckpointEvents.publishSaved(modelId, 1, Map.of("train/reward", 0.5));
        CheckpointEvents.publishSaved(modelId, 1, Map.of("train/reward", 0.9));
        CheckpointEvents.publishSaved(modelId, 2, Map.of());

        Awaitility.await().atMost(PATIENCE).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints", modelId)
                        .then().statusCode(200)
                        .body("data.step", contains(0, 1, 2))
                        .body("data[1].metrics.'train/reward'", equalTo(0.5f)));
    }

    @Test
    void metricsThatAreNotNumbersAreDropped() {
        CheckpointEvents.publish(modelId, CheckpointEvents.checkpointSaved(modelId, 1, Map.of("train/reward", 0.25))
                .replace("\"metrics\":{", "\"metrics\":{\"train/loss\":NaN,\"train/kl\":null,"));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId)
                        .then().statusCode(200)
                        .body("data[0].step", equalTo(1))
                        .body("data[0].metrics", equalTo(Map.of("train/reward", 0.25f))));
    }

    @Test
    void aMalformedRecordGoesToTheDeadLetterTopicAndTheConsumerMovesOn() {
        String garbage = "not a checkpoint " + UUID.randomUUID();
        String badModelId = CheckpointEvents.checkpointSaved("model-" + UUID.randomUUID(), 1, Map.of());
        CheckpointEvents.publish(modelId, garbage);
        CheckpointEvents.publish(modelId, badModelId);
        CheckpointEvents.publishSaved(modelId, 1, Map.of());

        Awaitility.await().atMost(PATIENCE).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data.step", contains(0, 1)));
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> deadLetters = CheckpointEvents.deadLetters();
            ConsumerRecord<String, String> unreadable = find(deadLetters, garbage).orElseThrow();
            assertEquals(modelId, unreadable.key());
            assertTrue(CheckpointEvents.header(unreadable, "dead-letter-reason").orElseThrow().contains("not a CheckpointSaved"));
            ConsumerRecord<String, String> notAModel = find(deadLetters, badModelId).orElseThrow();
            assertTrue(CheckpointEvents.header(notAModel, "dead-letter-reason").orElseThrow().contains("is not a UUID"));
        });
    }

    @Test
    void aCheckpointOfAnUnknownModelIsSkippedWithoutDeadLettering() {
        String unknownModel = UUID.randomUUID().toString();
        String orphan = CheckpointEvents.checkpointSaved(unknownModel, 3, Map.of());
        CheckpointEvents.publish(modelId, orphan);
        CheckpointEvents.publishSaved(modelId, 1, Map.of());

        Awaitility.await().atMost(PATIENCE).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().body("data", hasSize(2)));
        assertTrue(find(CheckpointEvents.deadLetters(), orphan).isEmpty(), "a checkpoint of an unknown model was dead-lettered");
    }

    private static Optional<ConsumerRecord<String, String>> find(List<ConsumerRecord<String, String>> records, String value) {
        return records.stream().filter(record -> value.equals(record.value())).findFirst();
    }
}
