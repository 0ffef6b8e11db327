package org.llmplatform.training;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.testing.PlatformTestResources;

/** A trainer's side of {@code training.checkpoints}, through a real producer, and a reader of its DLQ. */
public final class CheckpointEvents {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaProducer<String, String> producer;

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
        try {
            producer().send(new ProducerRecord<>(Topics.TRAINING_CHECKPOINTS, key, value)).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not publish to " + Topics.TRAINING_CHECKPOINTS, e);
        }
    }

    /** Every record in {@code training.checkpoints.dlq} so far. */
    public static List<ConsumerRecord<String, String>> deadLetters() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            String topic = Topics.deadLetter(Topics.TRAINING_CHECKPOINTS);
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    public static Optional<String> header(ConsumerRecord<String, String> record, String name) {
        return Optional.ofNullable(record.headers().lastHeader(name)).map(header -> new String(header.value()));
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
            config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            producer = new KafkaProducer<>(config);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> producer.close(Duration.ofSeconds(2)), "test-checkpoint-producer-close"));
        }
        return producer;
    }

    private CheckpointEvents() {
    }
}
