package org.llmplatform.tracing.otel;

import static io.opentelemetry.api.common.AttributeKey.booleanKey;
import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class OtelApiTest {

    private static final String PROTOBUF = "application/x-protobuf";

    @TestHTTPResource("/otel/v1/traces")
    URL tracesEndpoint;

    private final TraceClient client = new TraceClient("otel");

    @Test
    void aRealGzippingOtlpExporterWritesNestedCallsFoundByStreamQuery() {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(tracesEndpoint.toString())
                .addHeader("wandb-api-key", client.key).setCompression("gzip").build();
        SdkTracerProvider provider = SdkTracerProvider.builder().setResource(Resource.create(projectResource(client)))
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        Tracer tracer = provider.get("exporter-test");
        Span parent = tracer.spanBuilder("agent run").startSpan();
        Span child = tracer.spanBuilder("chat gpt-4o").setParent(Context.root().with(parent))
                .setAttribute("gen_ai.request.model", "gpt-4o")
                .setAttribute("gen_ai.usage.input_tokens", 12L)
                .setAttribute("gen_ai.usage.output_tokens", 3L)
                .setAttribute("input.value", "{\"question\": \"hi\"}")
                .setAttribute("output.value", "hello").startSpan();
        child.end();
        parent.end();
        provider.forceFlush().join(10, TimeUnit.SECONDS);
        provider.shutdown().join(10, TimeUnit.SECONDS);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> client.query(Map.of()).size() == 2);
        Map<String, Map<String, Object>> calls = byId(client.query(Map.of()));
        Map<String, Object> childCall = calls.get(child.getSpanContext().getSpanId());
        Map<String, Object> parentCall = calls.get(parent.getSpanContext().getSpanId());
        assertEquals(parent.getSpanContext().getTraceId(), childCall.get("trace_id"));
        assertEquals(parent.getSpanContext().getSpanId(), childCall.get("parent_id"));
        assertNull(parentCall.get("parent_id"));
        assertEquals("chat gpt-4o", childCall.get("op_name"));
        assertEquals(Map.of("input.value", Map.of("question", "hi")), childCall.get("inputs"));
        assertEquals(Map.of("output.value", "hello"), childCall.get("output"));
        assertEquals(Map.of("input_tokens", 12, "output_tokens", 3), path(childCall, "summary", "usage", "gpt-4o"));
        assertEquals("gpt-4o", path(childCall, "attributes", "model"));
        assertEquals("chat gpt-4o", path(childCall, "attributes", "otel_span", "name"));
        assertEquals("success", path(childCall, "summary", "weave", "status"));
        assertEquals(client.user, childCall.get("svc_user_id"));
    }

    @Test
    void theSpanMappingFollowsTheWeaveConventions() {
        List<SpanData> spans = RecordedSpans.record(projectResource(client), tracer -> {
            Span failed = tracer.spanBuilder("x".repeat(200))
                    .setAttribute("wandb.thread_id", "thread-1")
                    .setAttribute(booleanKey("wandb.is_turn"), true)
                    .setAttribute("wandb.display_name", "My turn")
                    .setAttribute("wandb.wb_run_id", "run-7")
                    .setAttribute(longKey("wandb.wb_run_step"), 3L)
                    .setAttribute("gen_ai.prompt.0.role", "user")
                    .setAttribute("gen_ai.prompt.0.content", "What is 2+2?")
                    .setAttribute("gen_ai.completion.0.content", "4")
                    .setAttribute(longKey("gen_ai.usage.prompt_tokens"), 7L)
                    .setAttribute("gen_ai.system", "openai")
                    .setAttribute("wandb.attributes", "{\"team\": \"search\"}")
                    .startSpan();
            failed.setStatus(StatusCode.ERROR, "model timed out");
            failed.end();
            tracer.spanBuilder("plain").setAttribute("custom.flag", "on").startSpan().end();
        });
        postProtobuf(client.key, null, RecordedSpans.protobuf(spans)).statusCode(200);

        Map<String, Map<String, Object>> calls = byId(client.query(Map.of()));
        Map<String, Object> turn = calls.get(spans.get(0).getSpanId());
        assertEquals(128, ((String) turn.get("op_name")).length());
        assertTrue(((String) turn.get("op_name")).matches("x{123}:[0-9a-f]{4}"));
        assertEquals("thread-1", turn.get("thread_id"));
        assertEquals(spans.get(0).getSpanId(), turn.get("turn_id"));
        assertEquals("My turn", turn.get("display_name"));
        assertEquals(client.project + "/run-7", turn.get("svc_run_id"));
        assertEquals(3, turn.get("svc_run_step"));
        assertEquals(Map.of("gen_ai.prompt", List.of(Map.of("role", "user", "content", "What is 2+2?"))), turn.get("inputs"));
        assertEquals(Map.of("gen_ai.completion", List.of(Map.of("content", "4"))), turn.get("output"));
        assertEquals(Map.of("prompt_tokens", 7), path(turn, "summary", "usage", "usage"));
        assertEquals("openai", path(turn, "attributes", "system"));
        assertEquals("search", path(turn, "attributes", "team"));
        assertEquals("model timed out", turn.get("exception"));
        assertEquals("error", path(turn, "summary", "weave", "status"));
        assertEquals("ERROR", path(turn, "attributes", "otel_span", "status", "code"));

        Map<String, Object> plain = calls.get(spans.get(1).getSpanId());
        assertEquals(Map.of(), plain.get("inputs"));
        assertNull(plain.get("output"));
        assertEquals("on", path(plain, "attributes", "custom", "flag"));
    }

    @Test
    void sendingTheSameSpansAgainChangesNothing() {
        List<SpanData> spans = RecordedSpans.record(projectResource(client),
                tracer -> tracer.spanBuilder("once").setAttribute("input.value", "a").startSpan().end());
        byte[] body = RecordedSpans.protobuf(spans);
        postProtobuf(client.key, null, body).statusCode(200);
        List<Map<String, Object>> first = client.query(Map.of());
        postProtobuf(client.key, null, body).statusCode(200);
        postJson(client.key, null, RecordedSpans.json(spans)).statusCode(200);

        assertEquals(first, client.query(Map.of()));
        assertEquals(1, first.size());
    }

    @Test
    void otlpJsonIsAcceptedOnBothPathsAndAnsweredInJson() {
        List<SpanData> spans = RecordedSpans.record(Attributes.empty(),
                tracer -> tracer.spanBuilder("from json").startSpan().end());
        postJson(client.key, client.project, RecordedSpans.json(spans)).statusCode(200)
                .contentType("application/json").body("partial_success", nullValue());

        List<SpanData> more = RecordedSpans.record(Attributes.empty(),
                tracer -> tracer.spanBuilder("through the envelope").startSpan().end());
        String envelope = "{\"project_id\": \"" + client.project + "\", \"traces\": "
                + new String(RecordedSpans.json(more), StandardCharsets.UTF_8) + "}";
        bearer(client.key).contentType("application/json").body(envelope).post("/otel/v1/trace").then().statusCode(200)
                .body("partial_success", nullValue());

        assertEquals(List.of("from json", "through the envelope"),
                client.query(Map.of()).stream().map(call -> call.get("op_name")).sorted().toList());
    }

    @Test
    void theProjectHeaderWinsOverResourceAttributes() {
        TraceClient other = new TraceClient("otel-other");
        List<SpanData> spans = RecordedSpans.record(projectResource(other),
                tracer -> tracer.spanBuilder("routed").startSpan().end());
        postProtobuf(client.key, client.project, RecordedSpans.protobuf(spans)).statusCode(200);
        assertEquals(1, client.query(Map.of()).size());
    }

    @Test
    void spansWithoutAProjectAreRefused() {
        List<SpanData> spans = RecordedSpans.record(Attributes.empty(), tracer -> tracer.spanBuilder("lost").startSpan().end());
        postProtobuf(client.key, null, RecordedSpans.protobuf(spans)).statusCode(400)
                .body("reason", containsString("wandb.entity"));
    }

    @Test
    void rejectedSpansAreCountedWhileTheOthersAreKept() {
        String good = span("aaaaaaaaaaaaaaaa", "good", "[]");
        String conflicting = span("bbbbbbbbbbbbbbbb", "conflicting",
                "[{\"key\": \"a\", \"value\": {\"intValue\": \"1\"}}, {\"key\": \"a.b\", \"value\": {\"intValue\": 2}}]");
        String badId = span("short", "bad id", "[]");
        postJson(client.key, client.project, exportJson(good, conflicting, badId).getBytes(StandardCharsets.UTF_8))
                .statusCode(200)
                .body("partial_success.rejected_spans", equalTo(2))
                .body("partial_success.error_message", containsString("attribute key 'a.b' conflicts"))
                .body("partial_success.error_message", containsString("span_id 'short' is not 8 bytes"));
        assertEquals(List.of("aaaaaaaaaaaaaaaa"), client.ids(Map.of()));
    }

    @Test
    void aProtobufRequestGetsItsPartialSuccessInProtobuf() {
        byte[] answer = postProtobuf(client.key, client.project, protobufWithOneSpan(new byte[] {1, 2, 3}))
                .statusCode(200).contentType(PROTOBUF).extract().asByteArray();
        String text = new String(answer, StandardCharsets.UTF_8);
        assertEquals(0x0A, answer[0]);
        assertEquals(0x08, answer[2]);
        assertEquals(1, answer[3]);
        assertTrue(text.contains("span_id '010203' is not 8 bytes"), text);
    }

    @Test
    void aFullySuccessfulProtobufExportAnswersAnEmptyResponse() {
        List<SpanData> spans = RecordedSpans.record(projectResource(client), tracer -> tracer.spanBuilder("ok").startSpan().end());
        byte[] answer = postProtobuf(client.key, null, RecordedSpans.protobuf(spans)).statusCode(200)
                .contentType(PROTOBUF).extract().asByteArray();
        assertArrayEquals(new byte[0], answer);
    }

    @Test
    void aTruncatedOrGarbageProtobufBodyIsABadRequest() {
        List<SpanData> spans = RecordedSpans.record(projectResource(client), tracer -> tracer.spanBuilder("cut").startSpan().end());
        byte[] whole = RecordedSpans.protobuf(spans);
        postProtobuf(client.key, null, Arrays.copyOf(whole, whole.length - 5)).statusCode(400)
                .body("reason", containsString("Invalid OTLP protobuf body"));
        postProtobuf(client.key, null, "this is not protobuf at all".getBytes(StandardCharsets.UTF_8)).statusCode(400)
                .body("reason", containsString("Invalid OTLP protobuf body"));
        postProtobuf(client.key, null, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}).statusCode(400);
        assertEquals(List.of(), client.ids(Map.of()));
    }

    @Test
    void malformedJsonBodiesAreBadRequests() {
        postJson(client.key, client.project, "{not json".getBytes(StandardCharsets.UTF_8)).statusCode(400)
                .body("reason", containsString("Invalid OTLP JSON body"));
        postJson(client.key, client.project, "{\"resourceSpans\": 5}".getBytes(StandardCharsets.UTF_8)).statusCode(400)
                .body("reason", equalTo("Invalid OTLP JSON body: 'resourceSpans' must be an array"));
        postJson(client.key, client.project, exportJson(span("aaaaaaaaaaaaaaaa", "t", "[]")
                .replace("\"1700000000000000000\"", "\"soon\"")).getBytes(StandardCharsets.UTF_8)).statusCode(400)
                .body("reason", containsString("startTimeUnixNano"));
    }

    @Test
    void anUnsupportedContentTypeIsRefused() {
        bearer(client.key).header("project_id", client.project).contentType("text/plain").body("spans")
                .post("/otel/v1/traces").then().statusCode(415).body("reason", containsString("application/x-protobuf"));
    }

    @Test
    void exportsNeedAValidKeyForTheProject() {
        byte[] body = exportJson(span("cccccccccccccccc", "auth", "[]")).getBytes(StandardCharsets.UTF_8);
        given().header("project_id", client.project).contentType("application/json").body(body).post("/otel/v1/traces")
                .then().statusCode(401).body("reason", containsString("Missing API key"));
        postJson("no-such-key", client.project, body).statusCode(401);

        String member = TestIdentities.unique("otel-member");
        TestIdentities.userWithKey(member);
        String team = TestIdentities.unique("otel-team");
        TestIdentities.team(team, member);
        postJson(client.key, team + "/p", body).statusCode(403);

        String basic = Base64.getEncoder().encodeToString(("api:" + client.key).getBytes(StandardCharsets.UTF_8));
        given().header("Authorization", "Basic " + basic).header("project_id", client.project)
                .contentType("application/json").body(body).post("/otel/v1/traces").then().statusCode(200);
        given().header("Authorization", "Bearer " + client.key).header("project_id", client.project)
                .contentType("application/json").body(body).post("/otel/v1/traces").then().statusCode(200);
        assertEquals(List.of("cccccccccccccccc"), client.ids(Map.of()));
    }

    private static Attributes projectResource(TraceClient owner) {
        return Attributes.of(stringKey("wandb.entity"), owner.user, stringKey("wandb.project"), "p");
    }

    private static String span(String spanId, String name, String attributes) {
        return """
                {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "%s", "name": "%s", "kind": 1,
                 "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000250000000",
                 "attributes": %s, "status": {}}""".formatted(spanId, name, attributes);
    }

    private static String exportJson(String... spans) {
        return "{\"resourceSpans\": [{\"resource\": {\"attributes\": []}, \"scopeSpans\": [{\"scope\": {\"name\": \"t\"},"
                + " \"spans\": [" + String.join(", ", spans) + "]}]}]}";
    }

    /** An export request with one span whose span_id is {@code spanId}, encoded by hand. */
    private static byte[] protobufWithOneSpan(byte[] spanId) {
        byte[] traceId = new byte[16];
        Arrays.fill(traceId, (byte) 7);
        byte[] span = concat(field(1, traceId), field(2, spanId), field(5, "n".getBytes(StandardCharsets.UTF_8)),
                new byte[] {0x39, 1, 0, 0, 0, 0, 0, 0, 0});
        return field(1, field(2, field(2, span)));
    }

    private static byte[] field(int number, byte[] value) {
        return concat(new byte[] {(byte) (number << 3 | 2), (byte) value.length}, value);
    }

    private static byte[] concat(byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(part -> part.length).sum();
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    private static RequestSpecification bearer(String key) {
        return given().header("Authorization", "Bearer " + key);
    }

    private static ValidatableResponse postProtobuf(String key, String project, byte[] body) {
        RequestSpecification request = given().header("wandb-api-key", key).contentType(PROTOBUF).body(body);
        if (project != null) {
            request = request.header("project_id", project);
        }
        return request.post("/otel/v1/traces").then();
    }

    private static ValidatableResponse postJson(String key, String project, byte[] body) {
        RequestSpecification request = bearer(key).contentType("application/json").body(body);
        if (project != null) {
            request = request.header("project_id", project);
        }
        return request.post("/otel/v1/traces").then();
    }

    private static Map<String, Map<String, Object>> byId(List<Map<String, Object>> calls) {
        return calls.stream().collect(Collectors.toMap(call -> (String) call.get("id"), call -> call));
    }

    @SuppressWarnings("unchecked")
    private static Object path(Map<String, Object> call, String... keys) {
        Object node = call;
        for (String key : keys) {
            node = node == null ? null : ((Map<String, Object>) node).get(key);
        }
        return node;
    }
}
