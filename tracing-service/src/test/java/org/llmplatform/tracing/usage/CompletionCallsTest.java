package org.llmplatform.tracing.usage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * One chat completion is one call (docs/tracing-service.md#usage-calls), whether a client traced it too or not, in
 * either order of arrival, after a redelivery, and when both sides arrive at the same time; and how long the
 * completions' links are kept.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CompletionCallsTest {

    private static final Instant STARTED = Instant.parse("2025-03-01T10:00:00Z");

    /** tracing.usage.completion-calls-kept, by default. */
    private static final Duration KEPT = Duration.ofDays(7);

    @Inject
    ObjectMapper json;

    @Inject
    Pool pool;

    @Inject
    CompletionCallsPruner pruner;

    private String user;
    private String key;
    private String project;
    private int markers;

    @BeforeEach
    void aUserWithAProject() {
        user = TestIdentities.unique("sdk-user");
        key = TestIdentities.userWithKey(user);
        project = user + "/story-app";
    }

    @Test
    void aCompletionNoClientTracedIsTheGatewaysCallWithItsMessagesAndAnswer() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        produce(record(completion, UsageRecord.SUCCESS));

        awaitCall(UsageCalls.callId(completion, STARTED))
                .body("call.op_name", equalTo("inference.chat.completions"))
                .body("call.inputs.model", equalTo("tiny-llama"))
                .body("call.inputs.messages[0].content", equalTo("Tell me about a dragon"))
                .body("call.inputs.temperature", equalTo(0.5f))
                .body("call.output.id", equalTo(completion))
                .body("call.output.choices[0].message.content", equalTo("Once upon a time"))
                .body("call.output.usage.total_tokens", equalTo(42))
                .body("call.summary.usage.tiny-llama.total_tokens", equalTo(42));
    }

    @Test
    void theClientsCallFirstMeansTheGatewaysIsNeverWrittenEvenRedelivered() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        String sdkCall = clientTracesWithOneEnd(completion);
        String record = json.writeValueAsString(record(completion, UsageRecord.SUCCESS));
        produce(record);
        produce(record);
        awaitConsumedUpTo(produceMarker());

        assertEquals(List.of(sdkCall), callIdsWithoutMarkers());
        assertEquals(1, callCount());
    }

    @Test
    void theClientsCallAfterTheGatewaysReplacesItAndARedeliveryDoesNotBringItBack() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        String record = json.writeValueAsString(record(completion, UsageRecord.SUCCESS));
        produce(record);
        String gatewayCall = UsageCalls.callId(completion, STARTED);
        awaitCall(gatewayCall);

        String sdkCall = clientTracesInABatch(completion, true);
        assertEquals(List.of(sdkCall), callIdsWithoutMarkers());

        produce(record);
        awaitConsumedUpTo(produceMarker());
        assertEquals(List.of(sdkCall), callIdsWithoutMarkers());
        assertEquals(1, callCount());
        read(sdkCall).body("call.summary.usage.tiny-llama.total_tokens", equalTo(42));
    }

    @Test
    void anOpThatReturnsACompletionWithoutCountingItLeavesTheGatewaysCall() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        String wrapper = UUID.randomUUID().toString();
        Map<String, Object> end = new java.util.HashMap<>(end(wrapper, completion, false));
        end.put("summary", Map.of());
        post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "start", "req", Map.of("start", start(wrapper))),
                Map.of("mode", "end", "req", Map.of("end", end))))).statusCode(200);
        produce(record(completion, UsageRecord.SUCCESS));
        awaitConsumedUpTo(produceMarker());

        assertEquals(List.of(wrapper, UsageCalls.callId(completion, STARTED)).stream().sorted().toList(),
                callIdsWithoutMarkers().stream().sorted().toList());
    }

    @Test
    void completionsTracedByTheClientWhileTheirRecordsAreConsumedAreOneCallEach() throws Exception {
        int completions = 24;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < completions; i++) {
            ids.add("chatcmpl-" + UUID.randomUUID());
        }
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<String>> traced = ids.stream()
                    .map(id -> CompletableFuture.supplyAsync(() -> clientTracesInABatch(id, false), clients)).toList();
            for (String id : ids) {
                produce(record(id, UsageRecord.SUCCESS));
            }
            List<String> sdkCalls = traced.stream().map(CompletableFuture::join).sorted().toList();
            awaitConsumedUpTo(produceMarker());
            assertEquals(sdkCalls, callIdsWithoutMarkers().stream().sorted().toList());
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void aRefusedRequestIsNoCall() throws Exception {
        String refused = "chatcmpl-" + UUID.randomUUID();
        produce(record(refused, UsageRecord.REFUSED));
        awaitConsumedUpTo(produceMarker());

        assertEquals(List.of(), callIdsWithoutMarkers());
    }

    @Test
    void aCompletionThatFailedIsAnErroredCallWithWhatTheClientWasTold() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        produce(record(completion, UsageRecord.ERROR));

        awaitCall(UsageCalls.callId(completion, STARTED))
                .body("call.exception", equalTo("inference request ended with status 'error': the upstream answered 500"))
                .body("call.inputs.messages[0].content", equalTo("Tell me about a dragon"));
    }

    @Test
    void linksLastWrittenLongerAgoThanKeptAreForgottenAndNewerOnesStay() throws Exception {
        String old = "chatcmpl-" + UUID.randomUUID();
        String recent = "chatcmpl-" + UUID.randomUUID();
        String oldSdkCall = clientTracesWithOneEnd(old);
        String recentSdkCall = clientTracesWithOneEnd(recent);
        produce(record(old, UsageRecord.SUCCESS));
        produce(record(recent, UsageRecord.SUCCESS));
        awaitConsumedUpTo(produceMarker());
        assertEquals(List.of(old, recent), linkedCompletions(old, recent));
        ageLink(old, KEPT.plusMinutes(1));
        ageLink(recent, KEPT.minusMinutes(1));

        assertTrue(pruner.prune().await().indefinitely() >= 1);

        assertEquals(List.of(recent), linkedCompletions(old, recent));
        assertEquals(List.of(oldSdkCall, recentSdkCall).stream().sorted().toList(),
                callIdsWithoutMarkers().stream().sorted().toList(), "forgetting a link changes no call");
    }

    /**
     * The record's link was forgotten, so it would no longer see the client's call: a redelivery of it (appended as
     * long ago as links are kept, as a consumer group that lost its offsets reads the topic again) is skipped.
     */
    @Test
    void aRecordRedeliveredAfterItsLinkWasForgottenAddsNoSecondCall() throws Exception {
        String completion = "chatcmpl-" + UUID.randomUUID();
        String record = json.writeValueAsString(record(completion, UsageRecord.SUCCESS));
        Instant appended = Instant.now();
        produce(record, appended);
        awaitCall(UsageCalls.callId(completion, STARTED));
        String sdkCall = clientTracesInABatch(completion, false);
        ageLink(completion, KEPT.plusMinutes(1));
        pruner.prune().await().indefinitely();
        assertEquals(List.of(), linkedCompletions(completion));

        produce(record, appended.minus(KEPT).minusSeconds(60));
        awaitConsumedUpTo(produceMarker());

        assertEquals(List.of(sdkCall), callIdsWithoutMarkers());
        assertEquals(1, callCount());
    }

    private void ageLink(String completion, Duration age) {
        pool.preparedQuery("UPDATE tracing.completion_calls SET linked_at = now() - make_interval(secs => $2)"
                + " WHERE completion_id = $1").execute(Tuple.of(completion, (double) age.toSeconds())).await().indefinitely();
    }

    private List<String> linkedCompletions(String... completions) {
        List<String> linked = new ArrayList<>();
        pool.preparedQuery("SELECT completion_id FROM tracing.completion_calls WHERE completion_id = ANY($1)"
                + " ORDER BY array_position($1, completion_id)").execute(Tuple.of(completions)).await().indefinitely()
                .forEach(row -> linked.add(row.getString(0)));
        return linked;
    }

    private UsageRecord record(String completion, String status) throws Exception {
        boolean answered = UsageRecord.SUCCESS.equals(status);
        JsonNode request = json.readTree("""
                {"model": "tiny-llama", "messages": [{"role": "user", "content": "Tell me about a dragon"}],
                 "temperature": 0.5}""");
        JsonNode response = answered ? json.readTree("""
                {"id": "%s", "object": "chat.completion", "created": 1740823200, "model": "tiny-llama",
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": "Once upon a time"},
                              "finish_reason": "stop"}],
                 "usage": {"prompt_tokens": 12, "completion_tokens": 30, "total_tokens": 42}}""".formatted(completion))
                : null;
        return new UsageRecord(UsageRecord.SCHEMA_VERSION, completion, project, user, "tiny-llama",
                UsageRecord.REFUSED.equals(status) ? 0 : 12, UsageRecord.REFUSED.equals(status) ? 0 : 30, 2000, status,
                STARTED, STARTED.plusSeconds(2), null, UsageRecord.REFUSED.equals(status) ? null : completion, request,
                response, answered ? null : UsageRecord.REFUSED.equals(status) ? "404: no model" : "the upstream answered 500");
    }

    /** The Weave SDK's openai call of the completion, its start then its end, as {@code /call/start} and {@code /call/end}. */
    private String clientTracesWithOneEnd(String completion) {
        String id = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(id))).statusCode(200);
        post("/call/end", Map.of("end", end(id, completion, false))).statusCode(200);
        return id;
    }

    /** The same in one {@code /call/upsert_batch}, its output as the SDK accumulates a stream when {@code streamed}. */
    private String clientTracesInABatch(String completion, boolean streamed) {
        String id = UUID.randomUUID().toString();
        post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "start", "req", Map.of("start", start(id))),
                Map.of("mode", "end", "req", Map.of("end", end(id, completion, streamed)))))).statusCode(200);
        return id;
    }

    private Map<String, Object> start(String id) {
        return Map.of("project_id", project, "id", id, "trace_id", id, "op_name", "openai.chat.completions.create",
                "started_at", "2025-03-01T10:00:00Z", "attributes", Map.of(),
                "inputs", Map.of("model", "tiny-llama", "messages", List.of(Map.of("role", "user", "content", "Tell me about a dragon"))));
    }

    private Map<String, Object> end(String id, String completion, boolean streamed) {
        Map<String, Object> usage = Map.of("prompt_tokens", 12, "completion_tokens", 30, "total_tokens", 42);
        return Map.of("project_id", project, "id", id, "ended_at", "2025-03-01T10:00:03Z",
                "output", Map.of("id", completion, "object", streamed ? "chat.completion.chunk" : "chat.completion",
                        "model", "tiny-llama", "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                                "message", Map.of("role", "assistant", "content", "Once upon a time"))), "usage", usage),
                "summary", Map.of("usage", Map.of("tiny-llama", usage)));
    }

    /**
     * A record of model {@code marker}, which the assertions leave out: once its call is there, every record produced
     * before it on the project's partition was consumed.
     */
    private String produceMarker() throws Exception {
        String marker = "marker-" + UUID.randomUUID();
        markers++;
        produce(new UsageRecord(UsageRecord.SCHEMA_VERSION, marker, project, user, "marker", 0, 0, 0,
                UsageRecord.SUCCESS, STARTED, STARTED));
        return UsageCalls.callId(marker, STARTED);
    }

    private void awaitConsumedUpTo(String markerCall) {
        awaitCall(markerCall);
    }

    /** The project's calls, the markers left out. */
    private List<String> callIdsWithoutMarkers() {
        String lines = post("/calls/stream_query", Map.of("project_id", project)).statusCode(200).extract().asString();
        List<String> ids = new ArrayList<>();
        for (String line : lines.split("\n")) {
            if (!line.isBlank() && !"marker".equals(JsonPath.from(line).getString("inputs.model"))) {
                ids.add(JsonPath.from(line).getString("id"));
            }
        }
        return ids;
    }

    /** {@code calls/query_stats}'s count of the project's calls, the markers left out. */
    private int callCount() {
        int all = post("/calls/query_stats", Map.of("project_id", project)).statusCode(200).extract().path("count");
        return all - markers;
    }

    private ValidatableResponse awaitCall(String id) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> read(id).body("call.id", equalTo(id)));
        return read(id);
    }

    private ValidatableResponse read(String id) {
        return post("/call/read", Map.of("project_id", project, "id", id)).statusCode(200);
    }

    private ValidatableResponse post(String path, Object body) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(body).post(path).then();
    }

    private void produce(UsageRecord record) throws Exception {
        produce(json.writeValueAsString(record));
    }

    private void produce(String value) throws Exception {
        produce(value, null);
    }

    /** At {@code appendedAt}, the Kafka timestamp a redelivery of a record appended then carries. */
    private void produce(String value, Instant appendedAt) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            producer.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, null,
                    appendedAt == null ? null : appendedAt.toEpochMilli(), project, value)).get();
        }
    }
}
