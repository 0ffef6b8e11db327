package org.llmplatform.training;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.TrainingJobEvent;

/** The test playing a trainer worker: it reads requests and orders from Kafka and answers with real records. */
public final class Trainer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** The request published for the job, once it is there. */
    public static ConsumerRecord<String, String> awaitRequest(String jobId) {
        return awaitRecord(Topics.TRAINING_JOBS_REQUESTED, jobId);
    }

    public static Optional<ConsumerRecord<String, String>> request(String jobId) {
        return find(Topics.TRAINING_JOBS_REQUESTED, jobId);
    }

    public static ConsumerRecord<String, String> awaitCancel(String jobId) {
        return awaitRecord(Topics.TRAINING_JOBS_CONTROL, jobId);
    }

    public static void emit(String modelId, String jobId, long seq, String type, Map<String, Object> data) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("schema_version", TrainingJobEvent.SCHEMA_VERSION);
        event.put("job_id", jobId);
        event.put("model_id", modelId);
        event.put("seq", seq);
        event.put("type", type);
        event.put("data", data);
        event.put("occurred_at", Instant.now().toString());
        Topic.send(Topics.TRAINING_JOBS_EVENTS, modelId, write(event));
    }

    /** Saves checkpoint {@code step} for the job, as a trainer announces it on training.checkpoints. */
    public static void saveCheckpoint(String modelId, String jobId, int step) {
        saveCheckpoint(modelId, jobId, step, 0.5);
    }

    public static void saveCheckpoint(String modelId, String jobId, int step, double loss) {
        String saved = CheckpointEvents.checkpointSaved(modelId, step, Map.of("train/loss", loss));
        Topic.send(Topics.TRAINING_CHECKPOINTS, modelId, saved.replaceFirst("\"job_id\":\"[^\"]+\"", "\"job_id\":\"" + jobId + "\""));
    }

    /** A whole successful run: started, one gradient step per sequence, checkpoint parent + 1, ended. */
    public static void train(String modelId, String jobId, int numSequences) {
        int parentStep = json(awaitRequest(jobId).value()).get("parent_step").asInt();
        emit(modelId, jobId, 1, "training_started", Map.of("num_sequences", numSequences));
        for (int step = 1; step <= numSequences; step++) {
            emit(modelId, jobId, 1 + step, "gradient_step", Map.of("step", step, "loss", 1.0 / step));
        }
        saveCheckpoint(modelId, jobId, parentStep + 1);
        emit(modelId, jobId, 2 + numSequences, "training_ended", Map.of());
    }

    public static JsonNode json(String value) {
        try {
            return JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static List<ConsumerRecord<String, String>> records(String topic, String containing) {
        return Topic.readAll(topic).stream().filter(record -> record.value() != null && record.value().contains(containing)).toList();
    }

    /** The first record on {@code topic} whose value contains {@code containing}, waited for. */
    public static ConsumerRecord<String, String> awaitRecord(String topic, String containing) {
        AtomicReference<ConsumerRecord<String, String>> found = new AtomicReference<>();
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Optional<ConsumerRecord<String, String>> record = find(topic, containing);
            assertTrue(record.isPresent(), "no record about " + containing + " on " + topic);
            found.set(record.get());
        });
        return found.get();
    }

    private static Optional<ConsumerRecord<String, String>> find(String topic, String containing) {
        return records(topic, containing).stream().findFirst();
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Trainer() {
    }
}
