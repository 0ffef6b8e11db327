package org.llmplatform.tracing.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Each new object version reaches {@code artifact.events} through the outbox; a re-publish does not. So does each
 * alias added to a version or moved to it, alone, so that automations name the version by it.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ObjectEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aNewObjectVersionIsAnnouncedOnArtifactEvents() throws Exception {
        TraceClient client = new TraceClient("events");
        Map<String, Object> obj = Map.of("project_id", client.project, "object_id", "prompt", "val", Map.of("text", "hi"));
        String digest = client.post("/obj/create", Map.of("obj", obj)).statusCode(200).extract().path("digest");
        client.post("/obj/create", Map.of("obj", obj)).statusCode(200);
        Map<String, Object> changed = Map.of("project_id", client.project, "object_id", "prompt", "val", Map.of("text", "bye"));
        String nextDigest = client.post("/obj/create", Map.of("obj", changed)).statusCode(200).extract().path("digest");
        String key = client.project + "/prompt";

        List<JsonNode> events = eventsOf(key, 4);
        assertEquals(List.of("CREATE_ARTIFACT", "ADD_ARTIFACT_ALIAS", "CREATE_ARTIFACT", "ADD_ARTIFACT_ALIAS"), events.stream().map(e -> e.get("event_type").asText()).toList());
        JsonNode created = events.get(0);
        assertEquals("prompt", created.get("collection").asText());
        assertEquals(digest, created.get("version").asText());
        assertEquals(client.user, created.get("entity").asText());
        assertEquals("p", created.get("project").asText());
        assertEquals(List.of("latest", "v0"), List.of(created.get("aliases").get(0).asText(), created.get("aliases").get(1).asText()));
        assertEquals(client.user, created.get("author").asText());
        assertEquals(1, created.get("schema_version").asInt());
        assertEquals(0, created.get("version_index").asInt());
        JsonNode next = events.get(2);
        assertEquals(nextDigest, next.get("version").asText());
        assertEquals(1, next.get("version_index").asInt());
        assertEquals("v1", next.get("aliases").get(1).asText());
    }

    @Test
    void anAliasAddedOrMovedIsAnnouncedAloneAndOneAlreadyThereIsNot() throws Exception {
        TraceClient client = new TraceClient("alias-events");
        Map<String, Object> obj = Map.of("project_id", client.project, "object_id", "model", "val", Map.of("v", 1));
        String first = client.post("/obj/create", Map.of("obj", obj)).statusCode(200).extract().path("digest");
        Map<String, Object> changed = Map.of("project_id", client.project, "object_id", "model", "val", Map.of("v", 2));
        String second = client.post("/obj/create", Map.of("obj", changed)).statusCode(200).extract().path("digest");
        setAliases(client, first, List.of("staging", "production")).statusCode(200);
        setAliases(client, first, List.of("staging")).statusCode(200);
        setAliases(client, second, List.of("staging")).statusCode(200);
        String key = client.project + "/model";

        List<JsonNode> events = eventsOf(key, 7);
        List<JsonNode> aliased = events.subList(4, events.size());
        assertEquals(List.of("ADD_ARTIFACT_ALIAS", "ADD_ARTIFACT_ALIAS", "ADD_ARTIFACT_ALIAS"),
                aliased.stream().map(e -> e.get("event_type").asText()).toList());
        assertEquals(List.of("[\"staging\"]", "[\"production\"]", "[\"staging\"]"),
                aliased.stream().map(e -> e.get("aliases").toString()).toList());
        assertEquals(List.of(first, first, second), aliased.stream().map(e -> e.get("version").asText()).toList());
        assertEquals(List.of(0, 0, 1), aliased.stream().map(e -> e.get("version_index").asInt()).toList());
        JsonNode moved = aliased.get(2);
        assertEquals("model", moved.get("collection").asText());
        assertEquals(client.user, moved.get("entity").asText());
        assertEquals(client.user, moved.get("author").asText());
        assertEquals("object", moved.get("metadata").get("artifact_type").asText());
    }

    /** The artifact events keyed {@code key} from the topic's start, once at least {@code expected} arrived. */
    private List<JsonNode> eventsOf(String key, int expected) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.ARTIFACT_EVENTS).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                collect(consumer, key, events, Duration.ofMillis(200));
                return events.size() >= expected;
            });
            collect(consumer, key, events, Duration.ofSeconds(2));
        }
        return events;
    }

    private static io.restassured.response.ValidatableResponse setAliases(TraceClient client, String digest, List<String> aliases) {
        return io.restassured.RestAssured.given().header("Authorization", "Bearer " + client.key)
                .contentType(io.restassured.http.ContentType.JSON)
                .body(Map.of("project_id", client.project, "digest", digest, "aliases", aliases))
                .put("/objs/model/aliases").then();
    }

    private static void collect(KafkaConsumer<String, String> consumer, String key, List<JsonNode> events, Duration wait)
            throws Exception {
        for (ConsumerRecord<String, String> record : consumer.poll(wait)) {
            if (key.equals(record.key())) {
                events.add(JSON.readTree(record.value()));
            }
        }
    }

    private static KafkaConsumer<String, String> consumer() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config);
    }
}
