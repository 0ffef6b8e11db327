package org.llmplatform.training.bench;

import static org.llmplatform.training.TrainingApi.as;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.llama.InferenceSession;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.TrainingJobConfig;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Rollouts;
import org.llmplatform.training.Topic;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.Trajectories;
import org.llmplatform.training.service.trainer.GrpoTrainer;
import org.llmplatform.training.service.trainer.StepListener;
import org.llmplatform.training.service.trainer.TrainingOutcome;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/**
 * The three figures through the real service, PostgreSQL and Kafka of the test resources: {@code log} of
 * 10,000 trajectories of 8 messages (server time, against parsing the same body in process), job pickup latency
 * create → training_started with an idle trainer (against one Kafka produce → consume hop), and the embedded
 * trainer's tokens/s (against the inference engine's forward-only tokens/s). Run with {@code bench/run.sh}.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@EnabledIfSystemProperty(named = "bench", matches = "true")
class TrainingBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final int LOG_RUNS = Integer.getInteger("bench.logRuns", 5);
    private static final int PICKUPS = Integer.getInteger("bench.pickups", 15);

    @TestHTTPResource("/")
    URL base;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void logPickupAndTrainerThroughput() throws Exception {
        String user = TestIdentities.unique("bench");
        String key = TestIdentities.userWithKey(user);
        log(key, TrainingApi.registerModel(key, user, "bench", "log"));
        pickup(key, TrainingApi.registerModel(key, user, "bench", "pickup", TrainingApi.EMBEDDED_BASE_MODEL));
        throughput();
    }

    private void log(String key, String modelId) throws Exception {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (int g = 0; g < 1000; g++) {
            List<Map<String, Object>> trajectories = new ArrayList<>();
            for (int t = 0; t < 10; t++) {
                trajectories.add(eightMessages(g * 10 + t));
            }
            groups.add(Trajectories.group(trajectories));
        }
        byte[] body = JSON.writeValueAsBytes(Map.of("split", "train", "trajectory_groups", groups));
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "v1/preview/models/" + modelId + "/log"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        double[] server = new double[LOG_RUNS];
        double[] parse = new double[LOG_RUNS];
        for (int run = -2; run < LOG_RUNS; run++) {
            long started = System.nanoTime();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            double seconds = (System.nanoTime() - started) / 1e9;
            if (response.statusCode() != 200) {
                throw new IllegalStateException("log answered " + response.statusCode() + ": " + response.body());
            }
            long parsing = System.nanoTime();
            List<TrajectoryGroup> parsed = JSON.readerForListOf(TrajectoryGroup.class).readValue(JSON.readTree(body).get("trajectory_groups"));
            double parseSeconds = (System.nanoTime() - parsing) / 1e9;
            if (run >= 0 && parsed.size() == 1000) {
                server[run] = seconds;
                parse[run] = parseSeconds;
            }
        }
        double ours = median(server);
        double baseline = median(parse);
        System.out.printf("BENCH log 10000 trajectories x 8 messages (%.1f MB): median %.3f s round trip (target <= 1 s); "
                + "baseline parsing the body in process %.3f s; ratio %.2f%n", body.length / 1e6, ours, baseline, ours / baseline);
    }

    private static Map<String, Object> eightMessages(int i) {
        Map<String, Object> trajectory = Trajectories.trajectory(i % 7 / 6.0, Map.of("correct", i % 2 == 0, "turns", 4));
        List<Object> messages = new ArrayList<>();
        messages.add(Map.of("role", "system", "content", "You are a helpful assistant for trajectory " + i + "."));
        for (int turn = 0; turn < 3; turn++) {
            messages.add(Map.of("role", "user", "content", "Question " + turn + " about item " + i + ": what comes next?"));
            messages.add(Map.of("role", "assistant", "content", "The answer to question " + turn + " is " + (i * 31 + turn) + "."));
        }
        messages.add(((List<?>) trajectory.get("messages_and_choices")).get(2));
        trajectory.put("messages_and_choices", messages);
        trajectory.put("additional_histories", List.of());
        return trajectory;
    }

    private void pickup(String key, String modelId) throws Exception {
        Map<String, Object> groups = Map.of("model_id", modelId, "trajectory_groups",
                Rollouts.sample(null, 1, 2, 4, 1));
        double[] latencies = new double[PICKUPS];
        for (int i = -2; i < PICKUPS; i++) {
            long started = System.nanoTime();
            String jobId = as(key).body(groups).post("/v1/preview/training-jobs").then().statusCode(200).extract().path("id");
            while (!as(key).get("/v1/preview/training-jobs/{id}/events", jobId).then().extract().jsonPath()
                    .getList("data.type").contains("training_started")) {
                Thread.sleep(5);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            while (!as(key).get("/v1/preview/training-jobs/{id}", jobId).then().extract().path("status").equals("COMPLETED")) {
                Thread.sleep(20);
            }
            if (i >= 0) {
                latencies[i] = seconds;
            }
        }
        double ours = median(latencies);
        double baseline = kafkaHop();
        System.out.printf("BENCH job pickup create -> training_started visible, idle trainer: p50 %.0f ms over %d jobs (target <= 500 ms); "
                + "baseline one Kafka produce -> consume hop %.0f ms; ratio %.1f%n", ours * 1000, PICKUPS, baseline * 1000, ours / baseline);
    }

    /** Median latency of one record from a producer to an already-assigned consumer on the test broker. */
    private static double kafkaHop() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        String topic = Topics.deadLetter(Topics.INFERENCE_USAGE);
        double[] hops = new double[10];
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            for (int i = 0; i < hops.length; i++) {
                String marker = UUID.randomUUID().toString();
                long started = System.nanoTime();
                Topic.send(topic, marker, marker);
                boolean seen = false;
                while (!seen) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(5))) {
                        seen |= marker.equals(record.value());
                    }
                }
                hops[i] = (System.nanoTime() - started) / 1e9;
            }
        }
        return median(hops);
    }

    private void throughput() throws Exception {
        List<Map<String, Object>> sampled = Rollouts.sample(null, 4, 8, 64, 7);
        for (Map<String, Object> group : sampled) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> trajectories = (List<Map<String, Object>>) group.get("trajectories");
            for (int i = 0; i < trajectories.size(); i++) {
                trajectories.get(i).put("reward", (double) (i % 2));
            }
        }
        List<TrajectoryGroup> groups = JSON.readerForListOf(TrajectoryGroup.class).readValue(JSON.writeValueAsBytes(sampled));
        GrpoTrainer trainer = Rollouts.trainer();
        TrainingJobConfig config = new TrainingJobConfig(5e-6, false, 0, "cispo", 1.0, 4.0, "token", null, false, null, true, false, 0, null,
                "current_learner", null, null, 1024, 0, null, false, false, null);
        LoraAdapter parent = trainer.initialAdapter();
        StepListener quiet = new StepListener() {
            @Override
            public void started(int numSequences) {
            }

            @Override
            public void gradientStep(Map<String, Double> metrics) {
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };
        trainer.train(groups, config, parent, 0, quiet);
        long started = System.nanoTime();
        TrainingOutcome outcome = trainer.train(groups, config, parent, 0, quiet);
        double trainerRate = outcome.trainedTokens() / ((System.nanoTime() - started) / 1e9);

        List<int[]> sequences = new ArrayList<>();
        int[] prompt = Rollouts.engine().encodeChat(List.of(new org.llmplatform.llama.ChatMessage("user", Rollouts.PROMPT)));
        for (Map<String, Object> group : sampled) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> trajectories = (List<Map<String, Object>>) group.get("trajectories");
            for (Map<String, Object> trajectory : trajectories) {
                @SuppressWarnings("unchecked")
                List<Integer> ids = (List<Integer>) ((Map<String, Object>) ((List<?>) trajectory.get("messages_and_choices")).get(1)).get("token_ids");
                int[] tokens = Arrays.copyOf(prompt, prompt.length + ids.size());
                for (int k = 0; k < ids.size(); k++) {
                    tokens[prompt.length + k] = ids.get(k);
                }
                sequences.add(tokens);
            }
        }
        long forwardTokens = 0;
        long forwardStarted = System.nanoTime();
        for (int repeat = 0; repeat < 3; repeat++) {
            for (int[] tokens : sequences) {
                InferenceSession session = Rollouts.engine().model().newSession();
                for (int pos = 0; pos < tokens.length; pos++) {
                    session.forward(tokens[pos], pos);
                }
                forwardTokens += tokens.length;
            }
        }
        double inferenceRate = forwardTokens / ((System.nanoTime() - forwardStarted) / 1e9);
        System.out.printf("BENCH embedded trainer on stories260K (CISPO, LoRA r 8, forward + backward + AdamW, %d tokens in %d rows): "
                + "%.0f tokens/s; baseline inference engine forward only %.0f tokens/s; ratio %.2f%n", outcome.trainedTokens(),
                outcome.gradientSteps(), trainerRate, inferenceRate, trainerRate / inferenceRate);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
