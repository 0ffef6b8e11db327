package org.llmplatform.training;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;

/** A trainer's side of {@code training.checkpoints}, through a real producer, and a reader of its DLQ. */
public final class CheckpointEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON a trainer publishes when it saved {@code step} of the model. */
    public static String checkpointSaved(String modelId, int step, Map<String, Double> metrics) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("schema_version", CheckpointSaved.SCHEMA_VERSION);
        event.put("model_id", modelId);
        event.put("job_id", UUID.randomUUID().toString());
        event.put("step", step);
        event.put("artifact_uri", "file:///checkpoints/" + modelId + "/step" + step);
        event.put("metrics", metrics);
        event.put("created_at", Instant.now().toString());
        try {
            return JSON.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void publishSaved(String modelId, int step, Map<String, Double> metrics) {
        publish(modelId, checkpointSaved(modelId, step, metrics));
    }

    /** Sends a raw value, keyed like the trainers key it (records of one key stay in order). */
    public static void publish(String key, String value) {
        Topic.send(Topics.TRAINING_CHECKPOINTS, key, value);
    }

    /** Every record in {@code training.checkpoints.dlq} so far. */
    public static List<ConsumerRecord<String, String>> deadLetters() {
        return Topic.readAll(Topics.deadLetter(Topics.TRAINING_CHECKPOINTS));
    }

    public static Optional<String> header(ConsumerRecord<String, String> record, String name) {
        return Optional.ofNullable(record.headers().lastHeader(name)).map(header -> new String(header.value()));
    }

    private CheckpointEvents() {
    }
}
