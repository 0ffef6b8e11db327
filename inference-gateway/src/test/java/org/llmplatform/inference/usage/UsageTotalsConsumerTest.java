package org.llmplatform.inference.usage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class UsageTotalsConsumerTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private static KafkaProducer<String, byte[]> producer;

    @Inject
    ObjectMapper json;

    @Inject
    Pool pool;

    @Inject
    CountedRequestsPruner pruner;

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
    void aRedeliveredRecordIsCountedOnce() {
        String user = TestIdentities.unique("counter");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/chat";
        Instant firstEnded = Instant.parse("2025-06-01T12:00:00Z");
        UsageRecord first = usage(project, "tiny-llama", 10, 5, "success", firstEnded);
        UsageRecord failed = usage(project, "tiny-llama", 3, 2, "error", firstEnded.plusSeconds(60));

        publish(project, first);
        publish(project, first);
        publish(project, failed);
        publish(project, usage(project, "alpha-model", 1, 1, "success", firstEnded));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> totals(key, project).body("data", hasSize(2)));
        totals(key, project)
                .body("object", equalTo("list"))
                .body("data[0].model", equalTo("alpha-model"))
                .body("data[1].project", equalTo(project))
                .body("data[1].model", equalTo("tiny-llama"))
                .body("data[1].requests", equalTo(2))
                .body("data[1].errors", equalTo(1))
                .body("data[1].prompt_tokens", equalTo(13))
                .body("data[1].completion_tokens", equalTo(7))
                .body("data[1].total_tokens", equalTo(20))
                .body("data[1].last_request_at", equalTo((int) failed.endedAt().getEpochSecond()));
    }

    /** Records are counted a poll at a time: a burst, redeliveries within it included, still adds up exactly. */
    @Test
    void aBurstWithRedeliveriesIsCountedExactly() {
        String user = TestIdentities.unique("burst");
        String key = TestIdentities.userWithKey(user);
        String chat = user + "/chat";
        String batch = user + "/batch";
        Instant ended = Instant.parse("2025-07-01T08:00:00Z");
        List<ProducerRecord<String, byte[]>> burst = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String project = i % 3 == 0 ? batch : chat;
            UsageRecord record = usage(project, i % 2 == 0 ? "even-model" : "odd-model", 1, i, i % 10 == 0 ? "error" : "success",
                    ended.plusSeconds(i));
            burst.add(new ProducerRecord<>(Topics.INFERENCE_USAGE, project, bytes(record)));
            if (i % 7 == 0) {
                burst.add(new ProducerRecord<>(Topics.INFERENCE_USAGE, project, bytes(record)));
            }
        }
        burst.forEach(producer::send);
        producer.flush();

        // per project and model: i in [0, 300) with i % 3 == 0 (batch) or not (chat), and i even or odd
        for (String project : List.of(chat, batch)) {
            for (String model : List.of("even-model", "odd-model")) {
                long requests = 0;
                long errors = 0;
                long completion = 0;
                long last = 0;
                for (int i = 0; i < 300; i++) {
                    if ((i % 3 == 0) == project.equals(batch) && (i % 2 == 0) == model.equals("even-model")) {
                        requests++;
                        errors += i % 10 == 0 ? 1 : 0;
                        completion += i;
                        last = ended.plusSeconds(i).getEpochSecond();
                    }
                }
                int index = model.equals("even-model") ? 0 : 1;
                long expectedRequests = requests;
                Awaitility.await().atMost(PATIENCE).untilAsserted(() -> totals(key, project)
                        .body("data", hasSize(2)).body("data[" + index + "].requests", equalTo((int) expectedRequests)));
                totals(key, project)
                        .body("data[" + index + "].model", equalTo(model))
                        .body("data[" + index + "].errors", equalTo((int) errors))
                        .body("data[" + index + "].prompt_tokens", equalTo((int) requests))
                        .body("data[" + index + "].completion_tokens", equalTo((int) completion))
                        .body("data[" + index + "].total_tokens", equalTo((int) (requests + completion)))
                        .body("data[" + index + "].last_request_at", equalTo((int) last));
            }
        }
    }

    /** A counted id is remembered for gateway.usage.counted-requests-kept (7 days), then forgotten; the totals stay. */
    @Test
    void countedRequestIdsAreForgottenOnceTheirRecordsCannotComeBack() {
        String user = TestIdentities.unique("forget");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/chat";
        UsageRecord weekOld = usage(project, "tiny-llama", 10, 5, "success", Instant.now());
        UsageRecord recent = usage(project, "tiny-llama", 3, 2, "success", Instant.now());
        publish(project, weekOld);
        publish(project, recent);
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> totals(key, project).body("data[0].requests", equalTo(2)));
        pool.preparedQuery("UPDATE inference.usage_requests SET counted_at = now() - interval '7 days 1 minute'"
                + " WHERE request_id = $1").execute(Tuple.of(weekOld.requestId())).await().indefinitely();

        assertTrue(pruner.prune().await().indefinitely() >= 1);

        List<String> remembered = new ArrayList<>();
        pool.preparedQuery("SELECT request_id FROM inference.usage_requests WHERE request_id = ANY($1)")
                .execute(Tuple.of(new String[] {weekOld.requestId(), recent.requestId()})).await().indefinitely()
                .forEach(row -> remembered.add(row.getString(0)));
        assertEquals(List.of(recent.requestId()), remembered);
        // the recent id still counts a redelivery once; the marker tells when the consumer got past it
        publish(project, recent);
        publish(project, usage(project, "tiny-llama", 100, 100, "success", Instant.now()));
        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> totals(key, project).body("data[0].requests", equalTo(3)));
        totals(key, project).body("data[0].total_tokens", equalTo(15 + 5 + 200));
    }

    @Test
    void usageIsAlsoCountedPerUtcDayAndModel() {
        String user = TestIdentities.unique("daily");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/chat";
        UsageRecord lateOnTheFirst = usage(project, "tiny-llama", 10, 5, "success", Instant.parse("2025-06-01T23:59:00Z"));
        publish(project, lateOnTheFirst);
        publish(project, lateOnTheFirst);
        publish(project, usage(project, "tiny-llama", 3, 2, "error", Instant.parse("2025-06-01T08:00:00Z")));
        publish(project, usage(project, "alpha-model", 1, 1, "success", Instant.parse("2025-06-02T00:00:01Z")));
        publish(project, usage(project, "alpha-model", 7, 7, "success", Instant.parse("2025-06-05T00:00:00Z")));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> daily(key, project, "2025-06-01", "2025-06-05").body("data", hasSize(3)));
        daily(key, project, "2025-06-01", "2025-06-02")
                .body("object", equalTo("list"))
                .body("project", equalTo(project))
                .body("from", equalTo("2025-06-01"))
                .body("to", equalTo("2025-06-02"))
                .body("data.day", contains("2025-06-01", "2025-06-02"))
                .body("data.model", contains("tiny-llama", "alpha-model"))
                .body("data[0].requests", equalTo(2))
                .body("data[0].errors", equalTo(1))
                .body("data[0].prompt_tokens", equalTo(13))
                .body("data[0].completion_tokens", equalTo(7))
                .body("data[0].total_tokens", equalTo(20))
                .body("data[1].total_tokens", equalTo(2));
    }

    @Test
    void badDailyQueriesAreNamedAndOtherProjectsRefused() {
        String user = TestIdentities.unique("daily");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/chat";
        given().header("Authorization", "Bearer " + key).queryParam("project", project).get("/v1/usage/daily")
                .then().statusCode(200).body("data", hasSize(0));
        given().header("Authorization", "Bearer " + key).get("/v1/usage/daily")
                .then().statusCode(422).body("detail[0].loc", contains("query", "project"));
        given().header("Authorization", "Bearer " + key).queryParam("project", project).queryParam("from", "June 1st")
                .get("/v1/usage/daily").then().statusCode(422).body("detail[0].loc", contains("query", "from"));
        given().header("Authorization", "Bearer " + key).queryParam("project", project).queryParam("from", "2025-06-02")
                .queryParam("to", "2025-06-01").get("/v1/usage/daily").then().statusCode(422)
                .body("detail[0].msg", containsString("after"));
        given().header("Authorization", "Bearer " + key).queryParam("project", project).queryParam("from", "2020-01-01")
                .queryParam("to", "2025-06-01").get("/v1/usage/daily").then().statusCode(422)
                .body("detail[0].msg", containsString("366"));
        String outsider = TestIdentities.userWithKey(TestIdentities.unique("eve"));
        given().header("Authorization", "Bearer " + outsider).queryParam("project", project).get("/v1/usage/daily")
                .then().statusCode(403);
    }

    @Test
    void malformedRecordsGoToTheDeadLetterTopicAndTheConsumerGoesOn() {
        String user = TestIdentities.unique("dlq");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/chat";
        byte[] garbage = ("not json at all " + project).getBytes(StandardCharsets.UTF_8);
        UsageRecord withoutRequestId = new UsageRecord(UsageRecord.SCHEMA_VERSION, null, project, user, "tiny-llama",
                1, 1, 5, "success", Instant.now(), Instant.now());

        send(project, garbage);
        publish(project, withoutRequestId);
        publish(project, usage(project, "tiny-llama", 4, 4, "success", Instant.now()));

        Awaitility.await().atMost(PATIENCE).untilAsserted(() -> totals(key, project)
                .body("data", hasSize(1)).body("data[0].requests", equalTo(1)).body("data[0].total_tokens", equalTo(8)));
        List<ConsumerRecord<String, byte[]>> dead = deadLettersFor(project, 2);
        assertEquals(new String(garbage, StandardCharsets.UTF_8), new String(dead.get(0).value(), StandardCharsets.UTF_8));
        assertTrue(reason(dead.get(1)).contains("request_id is required"), reason(dead.get(1)));
    }

    private static UsageRecord usage(String project, String model, long prompt, long completion, String status,
            Instant ended) {
        return new UsageRecord(UsageRecord.SCHEMA_VERSION, "req-" + UUID.randomUUID(), project, "someone", model,
                prompt, completion, 2000, status, ended.minusSeconds(2), ended);
    }

    private void publish(String project, UsageRecord record) {
        send(project, bytes(record));
    }

    private byte[] bytes(UsageRecord record) {
        try {
            return json.writeValueAsBytes(record);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(String project, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, project, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not publish a usage record", e);
        }
    }

    private static io.restassured.response.ValidatableResponse daily(String key, String project, String from, String to) {
        return given().header("Authorization", "Bearer " + key).queryParam("project", project).queryParam("from", from)
                .queryParam("to", to).get("/v1/usage/daily").then().statusCode(200);
    }

    private static io.restassured.response.ValidatableResponse totals(String key, String project) {
        return given().header("Authorization", "Bearer " + key).queryParam("project", project)
                .get("/v1/usage").then().statusCode(200);
    }

    private static List<ConsumerRecord<String, byte[]>> deadLettersFor(String project, int expected) {
        List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, TestIdentities.unique("dlq-reader"),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.deadLetter(Topics.INFERENCE_USAGE)));
            Awaitility.await().atMost(PATIENCE).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> {
                    if (project.equals(record.key())) {
                        found.add(record);
                    }
                });
                return found.size() >= expected;
            });
        }
        return found;
    }

    private static String reason(ConsumerRecord<String, byte[]> record) {
        Header header = record.headers().lastHeader("dead-letter-reason");
        return header == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
    }
}
