package org.llmplatform.inference.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.llmplatform.model.Topics;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** Reads what the gateway published on {@code inference.usage}. */
public final class UsageTopic {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The usage record of the request with this id in the project, waiting for it up to 30 s. */
    public static JsonNode awaitRecord(String project, String requestId) {
        AtomicReference<JsonNode> found = new AtomicReference<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, TestIdentities.unique("usage-reader"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.INFERENCE_USAGE));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> {
                    if (project.equals(record.key())) {
                        JsonNode usage = read(record.value());
                        if (usage.path("request_id").asText().equals(requestId)) {
                            found.set(usage);
                        }
                    }
                });
                return found.get() != null;
            });
        }
        return found.get();
    }

    private static JsonNode read(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private UsageTopic() {
    }
}
