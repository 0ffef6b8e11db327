package org.llmplatform.inference.checkpoints;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.llama.LlamaConfig;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.blob.AdapterBlobs.AdapterFiles;
import org.llmplatform.support.blob.AdapterBlobs;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * Trained checkpoints announced on {@code training.checkpoints}, with real PEFT adapters in the blob
 * store, served as {@code wandb-artifact:///…} models to the callers who may use their entity.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CheckpointServingTest {

    private static final String BASE = "stories260K";
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String SAMPLED = "\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],"
            + "\"temperature\":0.8,\"seed\":7,\"max_tokens\":24";

    private static KafkaProducer<String, byte[]> producer;

    @Inject
    AdapterBlobs adapters;

    @Inject
    ObjectMapper json;

    @Inject
    ModelCatalog catalog;

    @BeforeAll
    static void connect() {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
    }

    @AfterAll
    static void disconnect() {
        producer.close();
    }

    @Test
    void eachStepIsServedWithItsAdapterAndTheBareNameIsTheLatest() throws Exception {
        String owner = TestIdentities.unique("trainer");
        String ownerKey = TestIdentities.userWithKey(owner);
        String team = TestIdentities.unique("lab");
        TestIdentities.team(team, owner);
        String outsiderKey = TestIdentities.userWithKey(TestIdentities.unique("outsider"));
        String name = "wandb-artifact:///" + team + "/rl/agent";
        LlamaConfig config = catalog.find(BASE).orElseThrow().engine().config();
        LoraAdapter untrained = LoraAdapter.identity(config, 4, 8, 11);
        publish(checkpoint(team, "agent", 0, store(untrained)));
        publish(checkpoint(team, "agent", 1, store(trained(config, untrained))));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> assertTrue(
                modelIds(ownerKey).contains(name + ":step1"), "listed: " + modelIds(ownerKey)));
        String base = content(ownerKey, BASE);
        assertEquals(base, content(ownerKey, name + ":step0"), "an untrained adapter changes nothing");
        String stepOne = content(ownerKey, name + ":step1");
        assertNotEquals(base, stepOne, "a trained adapter changes the output for the same seed");
        chat(ownerKey, name).then().statusCode(200).body("model", equalTo(name))
                .body("choices[0].message.content", equalTo(stepOne));

        JsonPath models = given().header("Authorization", "Bearer " + ownerKey).get("/v1/models").then()
                .statusCode(200).extract().jsonPath();
        Map<String, Object> card = models.getMap("data.find { it.id == '" + name + ":step1' }");
        assertEquals(team, card.get("owned_by"));
        assertEquals(BASE, card.get("parent"));
        assertEquals(config.seqLen(), card.get("max_model_len"));
        assertTrue(modelIds(ownerKey).contains(name), "the bare name is listed too");
        given().header("Authorization", "Bearer " + ownerKey).urlEncodingEnabled(false)
                .get("/v1/models/" + name + ":step1").then().statusCode(200)
                .body("id", equalTo(name + ":step1")).body("parent", equalTo(BASE));

        chat(outsiderKey, name + ":step1").then().statusCode(404).body("error.code", equalTo("model_not_found"));
        chat(outsiderKey, name).then().statusCode(404).body("error.code", equalTo("model_not_found"));
        given().header("Authorization", "Bearer " + outsiderKey).urlEncodingEnabled(false)
                .get("/v1/models/" + name + ":step1").then().statusCode(404);
        assertTrue(modelIds(outsiderKey).stream().noneMatch(id -> id.contains(team)), "nothing leaks to others");
    }

    @Test
    void malformedEventsGoToTheDeadLetterTopicAndARedeliveryRegistersOnce() throws Exception {
        String owner = TestIdentities.unique("redeliver");
        String key = TestIdentities.userWithKey(owner);
        String name = "wandb-artifact:///" + owner + "/rl/agent";
        send(owner, ("not json " + owner).getBytes(StandardCharsets.UTF_8));
        publish(new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, owner, "job", owner, "rl", "agent", null, 0, null,
                Map.of(), Instant.now()));
        CheckpointSaved registered = checkpoint(owner, "agent", 0, null);
        publish(registered);
        publish(registered);

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> assertTrue(modelIds(key).contains(name + ":step0")));
        assertEquals(1, modelIds(key).stream().filter((name + ":step0")::equals).count());
        assertEquals(content(key, BASE), content(key, name + ":step0"), "step 0 without an adapter is the base model");
        List<ConsumerRecord<String, byte[]>> dead = deadLettersFor(owner, 2);
        assertEquals("not json " + owner, new String(dead.get(0).value(), StandardCharsets.UTF_8));
        assertTrue(new String(dead.get(1).value(), StandardCharsets.UTF_8).contains("\"base_model\":null"));
    }

    /** A trained-looking adapter: the same A, and a B that is no longer zero. */
    private static LoraAdapter trained(LlamaConfig config, LoraAdapter untrained) {
        Random random = new Random(5);
        LoraTarget[] targets = LoraTarget.values();
        float[][] a = new float[config.layers() * targets.length][];
        float[][] b = new float[a.length][];
        for (int layer = 0; layer < config.layers(); layer++) {
            for (LoraTarget target : targets) {
                int index = layer * targets.length + target.ordinal();
                a[index] = untrained.a(layer, target);
                b[index] = new float[untrained.b(layer, target).length];
                for (int i = 0; i < b[index].length; i++) {
                    b[index][i] = (float) (random.nextGaussian() * 0.5);
                }
            }
        }
        return LoraAdapter.of(config, untrained.rank(), untrained.alpha(), a, b);
    }

    /** The adapter's two files and its manifest in the blob store; the manifest's URI is the artifact URI. */
    private String store(LoraAdapter adapter) {
        return adapters.store(new AdapterFiles(adapter.adapterConfigJson(), adapter.safetensors())).await().atMost(PATIENCE);
    }

    private static CheckpointSaved checkpoint(String entity, String modelName, int step, String artifactUri) {
        return new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, entity + "-" + modelName, "job-" + step, entity, "rl",
                modelName, BASE, step, artifactUri, Map.of("reward", 0.5), Instant.now());
    }

    private void publish(CheckpointSaved event) throws Exception {
        send(event.entity(), json.writeValueAsBytes(event));
    }

    private static void send(String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(Topics.TRAINING_CHECKPOINTS, key, value)).get();
    }

    private static io.restassured.response.Response chat(String key, String model) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body("{\"model\":\"" + model + "\"," + SAMPLED + "}").post("/v1/chat/completions");
    }

    private static String content(String key, String model) {
        return chat(key, model).then().statusCode(200).extract().path("choices[0].message.content");
    }

    private static List<String> modelIds(String key) {
        return given().header("Authorization", "Bearer " + key).get("/v1/models").then().statusCode(200)
                .extract().jsonPath().getList("data.id", String.class);
    }

    private static List<ConsumerRecord<String, byte[]>> deadLettersFor(String key, int expected) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, TestIdentities.unique("dlq-reader"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.deadLetter(Topics.TRAINING_CHECKPOINTS)));
            List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
            Awaitility.await().atMost(PATIENCE).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> {
                    if (key.equals(record.key())) {
                        found.add(record);
                    }
                });
                return found.size() >= expected;
            });
            return found;
        }
    }
}
