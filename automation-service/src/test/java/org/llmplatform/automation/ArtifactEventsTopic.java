package org.llmplatform.automation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.PlatformTestResources;

/** Publishes to the real {@code artifact.events} topic and reads its dead-letter topic, as producers and operators would. */
public final class ArtifactEventsTopic {

    private static final JsonMapper JSON = JsonMapper.builder()
            .findAndAddModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private static KafkaProducer<String, String> producer;

    public static ArtifactEvent event(String entity, String project, Instant occurredAt) {
        return new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(), ArtifactEventType.LINK_ARTIFACT,
                entity, project, "model", "v0", List.of("latest"), List.of(), "someone", Map.of(), occurredAt);
    }

    public static void publish(ArtifactEvent event) {
        send(event.key(), json(event));
    }

    /** Publishes without waiting for the broker's acknowledgement (for the benchmark's paced load). */
    public static void publishAsync(ArtifactEvent event) {
        producer().send(new ProducerRecord<>(Topics.ARTIFACT_EVENTS, event.key(), json(event)));
    }

    public static void send(String key, String value) {
        try {
            producer().send(new ProducerRecord<>(Topics.ARTIFACT_EVENTS, key, value)).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("could not publish to " + Topics.ARTIFACT_EVENTS, e);
        }
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The event's JSON fields, to be taken apart into a record that is no longer a valid event. */
    public static Map<String, Object> fields(ArtifactEvent event) {
        return JSON.convertValue(event, new TypeReference<LinkedHashMap<String, Object>>() { });
    }

    /** The dead-lettered record whose value is {@code value}, waiting up to {@code within} for it. */
    public static ConsumerRecord<String, String> deadLetter(String value, Duration within) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.deadLetter(Topics.ARTIFACT_EVENTS)));
            Instant deadline = Instant.now().plus(within);
            while (Instant.now().isBefore(deadline)) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (value.equals(record.value())) {
                        return record;
                    }
                }
            }
        }
        throw new AssertionError("no dead-lettered record with value " + value + " within " + within);
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            // Kafka 4 clients hold a record up to 5 ms by default hoping to batch it; an event producer that
            // cares about latency (and the benchmark's paced load, one record every 5 ms) sends at once.
            config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    private ArtifactEventsTopic() {
    }
}
