package org.llmplatform.tracing.bench;

import static io.opentelemetry.api.common.AttributeKey.stringKey;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.otel.RecordedSpans;

/**
 * OTLP protobuf ingest in batches of 512 spans (made by the real OpenTelemetry SDK and encoded by the
 * OTLP exporter's marshaler) against {@code call/upsert_batch} of the same calls (start and end
 * parts with the same inputs, output and usage), in the same run. Run with {@code bench/otel.sh}.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class OtelBenchmark extends PackagedServiceBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SPANS_PER_BATCH = 512;
    private static final int BATCHES = Integer.getInteger("bench.batches", 200);
    /** Batches sent before the clock starts, on both sides: enough (about 50,000 spans) for the JIT to finish compiling the ingest path, so the figure is the steady state a running service sees. */
    private static final int WARMUP_BATCHES = Integer.getInteger("bench.warmup", 100);
    /**
     * Exporters sending at once, as a server sees several instrumented processes (each OTel SDK exports one
     * batch at a time); with one, decoding in Java and inserting in PostgreSQL take turns on one core.
     */
    private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
    private static final String QUESTION = "{\"question\": \"" + "what is the capital of France? ".repeat(6) + "\"}";
    private static final String ANSWER = "The capital of France is Paris. ".repeat(6);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void otlpIngestAgainstUpsertBatch() throws Exception {
        String user = TestIdentities.unique("otelbench");
        String key = TestIdentities.userWithKey(user);
        List<List<SpanData>> batches = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            batches.add(RecordedSpans.record(Attributes.of(stringKey("wandb.entity"), user, stringKey("wandb.project"),
                    "otel"), tracer -> {
                        for (int i = 0; i < SPANS_PER_BATCH; i++) {
                            Span span = tracer.spanBuilder("chat gpt-4o-mini")
                                    .setAttribute("gen_ai.request.model", "gpt-4o-mini")
                                    .setAttribute("gen_ai.usage.input_tokens", 42L)
                                    .setAttribute("gen_ai.usage.output_tokens", 17L)
                                    .setAttribute("input.value", QUESTION)
                                    .setAttribute("output.value", ANSWER)
                                    .startSpan();
                            span.end();
                        }
                    }));
        }
        List<byte[]> otlpBodies = batches.stream().map(RecordedSpans::protobuf).toList();
        List<String> upsertBodies = new ArrayList<>();
        for (List<SpanData> batch : batches) {
            upsertBodies.add(upsertBatch(user + "/upsert", batch));
        }

        double otelRate = rate(otlpBodies.size(), b -> send("otel/v1/traces", key, "application/x-protobuf",
                HttpRequest.BodyPublishers.ofByteArray(otlpBodies.get(b))));
        double upsertRate = rate(upsertBodies.size(), b -> send("call/upsert_batch", key, "application/json",
                HttpRequest.BodyPublishers.ofString(upsertBodies.get(b))));
        System.out.printf("BENCH otel ingest (protobuf, %d spans per batch, %d exporters at once): %.0f spans/s; call/upsert_batch of the same"
                + " calls: %.0f calls/s; ratio %.2f (target >= 10000 spans/s)%n", SPANS_PER_BATCH, CLIENTS, otelRate, upsertRate,
                otelRate / upsertRate);
    }

    private interface Sender {
        void send(int batch) throws Exception;
    }

    /**
     * Spans per second over the batches after the warm-up, sent by {@code CLIENTS} exporters at once (the
     * warm-up by one), each sending its next batch when the previous one is answered.
     */
    private static double rate(int batches, Sender sender) throws Exception {
        for (int b = 0; b < WARMUP_BATCHES; b++) {
            sender.send(b);
        }
        AtomicInteger next = new AtomicInteger(WARMUP_BATCHES);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long began = System.nanoTime();
        List<Future<?>> sent = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            sent.add(clients.submit(() -> {
                for (int b = next.getAndIncrement(); b < batches; b = next.getAndIncrement()) {
                    sender.send(b);
                }
                return null;
            }));
        }
        for (Future<?> client : sent) {
            client.get();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        clients.shutdown();
        return (batches - WARMUP_BATCHES) * SPANS_PER_BATCH / seconds;
    }

    private void send(String path, String key, String contentType, HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base.toString() + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", contentType).POST(body).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /** The same calls the spans become, as start and end parts. */
    private static String upsertBatch(String project, List<SpanData> spans) throws Exception {
        List<Object> items = new ArrayList<>();
        for (SpanData span : spans) {
            Map<String, Object> start = new HashMap<>();
            start.put("project_id", project);
            start.put("id", span.getSpanId());
            start.put("trace_id", span.getTraceId());
            start.put("op_name", span.getName());
            start.put("started_at", java.time.Instant.ofEpochSecond(0, span.getStartEpochNanos()).toString());
            start.put("attributes", Map.of("model", "gpt-4o-mini"));
            start.put("inputs", Map.of("input.value", JSON.readTree(QUESTION)));
            Map<String, Object> end = Map.of("project_id", project, "id", span.getSpanId(),
                    "ended_at", java.time.Instant.ofEpochSecond(0, span.getEndEpochNanos()).toString(),
                    "output", Map.of("output.value", ANSWER),
                    "summary", Map.of("usage", Map.of("gpt-4o-mini", Map.of("input_tokens", 42, "output_tokens", 17))));
            items.add(Map.of("mode", "start", "req", Map.of("start", start)));
            items.add(Map.of("mode", "end", "req", Map.of("end", end)));
        }
        return JSON.writeValueAsString(Map.of("batch", items));
    }
}
