package org.llmplatform.tracing.usage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class InferenceUsageConsumerTest {

    private static final Instant STARTED = Instant.parse("2025-03-01T10:00:00Z");

    @Inject
    ObjectMapper json;

    private String user;
    private String key;
    private String project;

    @BeforeEach
    void aUserWithAProject() {
        user = TestIdentities.unique("gateway-user");
        key = TestIdentities.userWithKey(user);
        project = user + "/chat";
    }

    @Test
    void aReportedCompletionBecomesAFinishedCallWithItsUsage() throws Exception {
        String requestId = "req-" + UUID.randomUUID();
        produce(project, json.writeValueAsString(usage(requestId, "success")));

        awaitCall(UsageCalls.callId(requestId, STARTED))
                .body("call.op_name", equalTo("inference.chat.completions"))
                .body("call.started_at", equalTo("2025-03-01T10:00:00Z"))
                .body("call.ended_at", equalTo("2025-03-01T10:00:02Z"))
                .body("call.inputs", equalTo(Map.of("model", "tiny-llama")))
                .body("call.attributes.request_id", equalTo(requestId))
                .body("call.attributes.source", equalTo("inference-gateway"))
                .body("call.svc_user_id", equalTo(user))
                .body("call.exception", nullValue())
                .body("call.summary.usage", equalTo(Map.of("tiny-llama", Map.of("prompt_tokens", 12,
                        "completion_tokens", 30, "total_tokens", 42, "requests", 1))))
                .body("call.summary.weave.status", equalTo("success"))
                .body("call.summary.weave.latency_ms", equalTo(2000));
    }

    @Test
    void eachApiIsACallNamedAfterIt() throws Exception {
        Map<String, String> opNames = Map.of("cmpl-", "inference.completions", "embd-", "inference.embeddings",
                "resp-", "inference.responses", "chatcmpl-", "inference.chat.completions");
        for (Map.Entry<String, String> api : opNames.entrySet()) {
            String requestId = api.getKey() + UUID.randomUUID();
            produce(project, json.writeValueAsString(usage(requestId, "success")));
            awaitCall(UsageCalls.callId(requestId, STARTED))
                    .body("call.op_name", equalTo(api.getValue()))
                    .body("call.summary.usage.tiny-llama.total_tokens", equalTo(42));
        }
    }

    @Test
    void aFailedCompletionIsAnErroredCallAndARedeliveryChangesNothing() throws Exception {
        String requestId = "req-" + UUID.randomUUID();
        String record = json.writeValueAsString(usage(requestId, "error"));
        produce(project, record);
        produce(project, record);

        awaitCall(UsageCalls.callId(requestId, STARTED))
                .body("call.exception", equalTo("inference request ended with status 'error'"))
                .body("call.summary.weave.status", equalTo("error"))
                .body("call.summary.usage.tiny-llama.requests", equalTo(1));
    }

    @Test
    void theRecordOfATrackedCompletionIsThatCallAndARedeliveryChangesNothing() throws Exception {
        String completion = UUID.randomUUID().toString();
        startCall(key, project, completion, "weave.completions_create");
        String requestId = "req-" + UUID.randomUUID();
        String record = json.writeValueAsString(tracked(requestId, completion));
        produce(project, record);
        produce(project, record);
        String later = "req-" + UUID.randomUUID();
        produce(project, json.writeValueAsString(usage(later, "success")));

        // Records of a project are consumed in order: once the later one is a call, both before it were consumed.
        awaitCall(UsageCalls.callId(later, STARTED));
        read(completion).body("call.op_name", equalTo("weave.completions_create"))
                .body("call.attributes.inference_request_id", equalTo(requestId));
        assertEquals(List.of(completion, UsageCalls.callId(later, STARTED)), callIds(key, project));
    }

    @Test
    void aRecordNamingACallItMayNotClaimIsACallOfItsOwn() throws Exception {
        String otherUser = TestIdentities.unique("other-user");
        String otherKey = TestIdentities.userWithKey(otherUser);
        String otherProject = otherUser + "/chat";
        String foreign = UUID.randomUUID().toString();
        startCall(otherKey, otherProject, foreign, "weave.completions_create");
        String notACompletion = UUID.randomUUID().toString();
        startCall(key, project, notACompletion, "my_op");
        String completion = UUID.randomUUID().toString();
        startCall(key, project, completion, "weave.completions_create");
        String claiming = "req-" + UUID.randomUUID();
        produce(project, json.writeValueAsString(tracked(claiming, completion)));

        for (String callId : List.of(foreign, notACompletion, completion)) {
            String requestId = "req-" + UUID.randomUUID();
            produce(project, json.writeValueAsString(tracked(requestId, callId)));
            awaitCall(UsageCalls.callId(requestId, STARTED)).body("call.op_name", equalTo("inference.chat.completions"))
                    .body("call.summary.usage.tiny-llama.total_tokens", equalTo(42));
        }
        read(completion).body("call.attributes.inference_request_id", equalTo(claiming));
        read(notACompletion).body("call.attributes.inference_request_id", nullValue());
        given().header("Authorization", "Bearer " + otherKey).contentType(ContentType.JSON)
                .body(Map.of("project_id", otherProject, "id", foreign)).post("/call/read").then().statusCode(200)
                .body("call.attributes.inference_request_id", nullValue());
        assertEquals(List.of(foreign), callIds(otherKey, otherProject));
    }

    @Test
    void malformedRecordsGoToTheDeadLetterTopicAndTheConsumerGoesOn() throws Exception {
        String garbage = "not json " + UUID.randomUUID();
        String invalidRequestId = "req-" + UUID.randomUUID();
        String invalid = json.writeValueAsString(new UsageRecord(1, invalidRequestId, "no-slash", user,
                "tiny-llama", 1, 1, 1, "success", STARTED, STARTED));
        String requestId = "req-" + UUID.randomUUID();
        produce(project, garbage);
        produce(project, invalid);
        produce(project, json.writeValueAsString(usage(requestId, "success")));

        awaitCall(UsageCalls.callId(requestId, STARTED)).body("call.summary.weave.status", equalTo("success"));
        List<String> dead = deadLetters(2, value -> value.equals(garbage) || value.contains(invalidRequestId));
        assertTrue(dead.contains(garbage), "the unreadable record reached the DLQ as it was");
        assertTrue(dead.stream().anyMatch(value -> value.contains(invalidRequestId)), "the invalid record reached the DLQ");
    }

    private UsageRecord usage(String requestId, String status) {
        return new UsageRecord(UsageRecord.SCHEMA_VERSION, requestId, project, user, "tiny-llama", 12, 30, 2000,
                status, STARTED, STARTED.plusSeconds(2));
    }

    private UsageRecord tracked(String requestId, String weaveCallId) {
        return new UsageRecord(UsageRecord.SCHEMA_VERSION, requestId, project, user, "tiny-llama", 12, 30, 2000,
                "success", STARTED, STARTED.plusSeconds(2), weaveCallId);
    }

    private static void startCall(String key, String project, String id, String opName) {
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("start", Map.of("project_id", project, "id", id, "trace_id", id, "op_name", opName,
                        "started_at", "2025-03-01T09:59:00Z", "attributes", Map.of(), "inputs", Map.of())))
                .post("/call/start").then().statusCode(200);
    }

    /** The ids of the project's calls, oldest first. */
    private static List<String> callIds(String key, String project) {
        String lines = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", project, "sort_by", List.of(Map.of("field", "started_at", "direction", "asc"))))
                .post("/calls/stream_query").then().statusCode(200).extract().asString();
        List<String> ids = new ArrayList<>();
        for (String line : lines.split("\n")) {
            if (!line.isBlank()) {
                ids.add(io.restassured.path.json.JsonPath.from(line).getString("id"));
            }
        }
        return ids;
    }

    private ValidatableResponse awaitCall(String id) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> read(id).body("call.id", equalTo(id)));
        return read(id);
    }

    private ValidatableResponse read(String id) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", project, "id", id))
                .post("/call/read").then().statusCode(200);
    }

    private static void produce(String key, String value) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            producer.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, key, value)).get();
        }
    }

    private static List<String> deadLetters(int wanted, Predicate<String> ours) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(Topics.deadLetter(Topics.INFERENCE_USAGE)));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && ours.test(record.value())) {
                        found.add(record.value());
                    }
                }
                return found.size() >= wanted;
            });
        }
        return found;
    }
}
