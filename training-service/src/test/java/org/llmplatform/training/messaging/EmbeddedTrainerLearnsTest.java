package org.llmplatform.training.messaging;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.Topics;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.service.AdapterStorage;

/**
 * Proof that the embedded trainer learns: 10 RL steps through the real API and Kafka, each on 4 groups of 8
 * stories sampled from stories260K with the latest checkpoint's adapter, rewarded by how often they say "girl".
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EmbeddedTrainerLearnsTest {

    private static final int JOBS = 10;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    AdapterStorage adapters;

    @Test
    void theMeanRewardOfTheLastThreeStepsIsClearlyAboveTheFirstThree() {
        String user = TestIdentities.unique("ada");
        String key = TestIdentities.userWithKey(user);
        String modelId = TrainingApi.registerModel(key, user, "rl", "storyteller", TrainingApi.EMBEDDED_BASE_MODEL);
        LoraAdapter adapter = null;
        List<Double> rewards = new ArrayList<>();
        for (int job = 0; job < JOBS; job++) {
            List<Map<String, Object>> groups = Rollouts.sample(adapter, 4, 8, 40, job);
            rewards.add(Rollouts.meanReward(groups));
            String jobId = as(key).body(Map.of("model_id", modelId, "trajectory_groups", groups))
                    .post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
            Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                    as(key).get("/v1/preview/training-jobs/{id}", jobId).then().statusCode(200).body("status", equalTo("COMPLETED")));
            List<ConsumerRecord<String, String>> saved = Trainer.records(Topics.TRAINING_CHECKPOINTS, jobId);
            assertEquals(1, saved.size());
            assertEquals(job + 1, Trainer.json(saved.get(0).value()).get("step").asInt());
            adapter = adapters.load(Trainer.json(saved.get(0).value()).get("artifact_uri").asText()).await().atMost(PATIENCE);
        }
        double first = (rewards.get(0) + rewards.get(1) + rewards.get(2)) / 3;
        double last = (rewards.get(JOBS - 3) + rewards.get(JOBS - 2) + rewards.get(JOBS - 1)) / 3;
        System.out.printf("Mean reward per job (count of \"%s\", capped at 3): %s; first 3: %.3f, last 3: %.3f%n",
                Rollouts.REWARDED_WORD, rewards.stream().map(r -> String.format("%.3f", r)).toList(), first, last);
        assertTrue(last > 2 * first && last - first > 0.4, "mean reward first 3 jobs " + first + ", last 3 jobs " + last + ": " + rewards);
    }
}
