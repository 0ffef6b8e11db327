package org.llmplatform.tracing.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;

/**
 * Ingest through {@code call/upsert_batch} against a batched JDBC insert of the same rows, and
 * {@code calls/stream_query} over a large project, through the packaged service. Run with {@code bench/run.sh}; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class CallsBenchmark extends PackagedServiceBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int INGEST_BATCHES = Integer.getInteger("bench.batches", 120);
    /** Batches sent before the clock starts, on both sides, so the JIT and the database caches are warm. */
    private static final int WARMUP_BATCHES = Integer.getInteger("bench.warmup", 40);
    private static final int QUERY_CALLS = Integer.getInteger("bench.calls", 1_000_000);
    private static final int PAGE_RUNS = Integer.getInteger("bench.pages", 50);
    private static final String KILOBYTE = "lorem ipsum dolor sit amet ".repeat(19);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void ingestAndQuery() throws Exception {
        String user = TestIdentities.unique("bench");
        String key = TestIdentities.userWithKey(user);
        ingest(user + "/ingest", user + "/direct", key);
        query(user + "/query", key);
    }

    private void ingest(String project, String directProject, String key) throws Exception {
        List<String> batches = new ArrayList<>();
        List<List<Map<String, Object>>> calls = new ArrayList<>();
        for (int b = 0; b < INGEST_BATCHES; b++) {
            List<Map<String, Object>> items = new ArrayList<>();
            List<Map<String, Object>> batchCalls = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                String id = UUID.randomUUID().toString();
                Map<String, Object> start = new HashMap<>(Map.of("project_id", project, "id", id, "trace_id", id,
                        "op_name", "bench_op", "started_at", "2025-01-01T12:00:00Z", "attributes", Map.of("k", "v"),
                        "inputs", Map.of("prompt", KILOBYTE, "n", i)));
                Map<String, Object> end = Map.of("project_id", project, "id", id, "ended_at", "2025-01-01T12:00:01Z",
                        "output", Map.of("answer", KILOBYTE), "summary", Map.of("usage", Map.of("m", Map.of("requests", 1))));
                items.add(Map.of("mode", "start", "req", Map.of("start", start)));
                items.add(Map.of("mode", "end", "req", Map.of("end", end)));
                batchCalls.add(start);
            }
            batches.add(JSON.writeValueAsString(Map.of("batch", items)));
            calls.add(batchCalls);
        }
        long began = 0;
        for (int b = 0; b < batches.size(); b++) {
            if (b == WARMUP_BATCHES) {
                began = System.nanoTime();
            }
            String batch = batches.get(b);
            HttpResponse<String> response = http.send(post("call/upsert_batch", key, batch, "application/json"),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("upsert_batch answered " + response.statusCode() + ": " + response.body());
            }
        }
        double serviceRate = (INGEST_BATCHES - WARMUP_BATCHES) * 500 / seconds(began);

        String columns = "project_id, id, trace_id, op_name, started_at, attributes, inputs, svc_user_id, ended_at,"
                + " output, summary";
        try (Connection db = database();
             PreparedStatement insert = db.prepareStatement("INSERT INTO tracing.calls (" + columns + ") VALUES"
                     + " (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?::jsonb, ?::jsonb)")) {
            long directBegan = 0;
            for (int b = 0; b < calls.size(); b++) {
                if (b == WARMUP_BATCHES) {
                    directBegan = System.nanoTime();
                }
                List<Map<String, Object>> batch = calls.get(b);
                for (Map<String, Object> start : batch) {
                    insert.setString(1, directProject);
                    insert.setString(2, (String) start.get("id"));
                    insert.setString(3, (String) start.get("id"));
                    insert.setString(4, "bench_op");
                    insert.setTimestamp(5, Timestamp.from(Instant.parse("2025-01-01T12:00:00Z")));
                    insert.setString(6, "{\"k\":\"v\"}");
                    insert.setString(7, JSON.writeValueAsString(start.get("inputs")));
                    insert.setString(8, "bench");
                    insert.setTimestamp(9, Timestamp.from(Instant.parse("2025-01-01T12:00:01Z")));
                    insert.setString(10, JSON.writeValueAsString(Map.of("answer", KILOBYTE)));
                    insert.setString(11, "{\"usage\":{\"m\":{\"requests\":1}}}");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            double directRate = (INGEST_BATCHES - WARMUP_BATCHES) * 500 / seconds(directBegan);
            System.out.printf("BENCH ingest: upsert_batch %.0f parts/s, direct batched insert %.0f parts/s, ratio %.2f%n",
                    serviceRate, directRate, serviceRate / directRate);
        }
    }

    private void query(String project, String key) throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute(("INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at,"
                    + " ended_at, attributes, inputs, output, summary, svc_user_id)"
                    + " SELECT '%s', lpad(g::text, 8, '0'), 't' || (g / 10), CASE WHEN g %% 10 = 0 THEN NULL"
                    + " ELSE lpad((g - g %% 10)::text, 8, '0') END, 'op_' || (g %% 5),"
                    + " timestamptz '2025-01-01' + g * interval '1 second', timestamptz '2025-01-01' + g * interval '1 second'"
                    + " + interval '250 milliseconds', '{}', jsonb_build_object('x', g %% 100, 'text', 'some input text'),"
                    + " '{\"y\": 1}', '{}', 'bench' FROM generate_series(1, %d) g").formatted(project, QUERY_CALLS));
            statement.execute("ANALYZE tracing.calls");
        }
        stream(project, key, "{}", "unfiltered");
        stream(project, key, "{\"query\": {\"$expr\": {\"$lt\": [{\"$getField\": \"inputs.x\"}, {\"$literal\": 50}]}}}",
                "inputs.x < 50");

        String page = "{\"filter\": {\"trace_roots_only\": true, \"op_names\": [\"op_0\"]}, \"limit\": 100,"
                + " \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"desc\"}]}";
        long[] micros = new long[PAGE_RUNS];
        for (int i = 0; i < PAGE_RUNS; i++) {
            long began = System.nanoTime();
            HttpResponse<String> response = http.send(post("calls/stream_query", key, withProject(page, project),
                    "application/jsonl"), HttpResponse.BodyHandlers.ofString());
            micros[i] = (System.nanoTime() - began) / 1000;
            if (response.statusCode() != 200 || response.body().lines().count() != 100) {
                throw new IllegalStateException("the first page failed: " + response.statusCode());
            }
        }
        Arrays.sort(micros);
        System.out.printf("BENCH first page (trace_roots_only, op_names, limit 100, started_at desc): p50 %.1f ms,"
                + " p99 %.1f ms over %d runs%n", micros[PAGE_RUNS / 2] / 1000.0, micros[PAGE_RUNS * 99 / 100] / 1000.0,
                PAGE_RUNS);
    }

    /** Streams the whole answer, sampling the service's RSS: a stream holds a cursor's page, never the result. */
    private void stream(String project, String key, String body, String label) throws Exception {
        long before = serviceRss();
        AtomicLong peak = new AtomicLong(before);
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(serviceRss(), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
        long began = System.nanoTime();
        long lines = 0;
        HttpResponse<InputStream> response = http.send(post("calls/stream_query", key, withProject(body, project),
                "application/jsonl"), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            while (reader.readLine() != null) {
                lines++;
            }
        }
        double elapsed = seconds(began);
        sampler.interrupt();
        sampler.join();
        System.out.printf("BENCH stream_query %s: %d calls in %.1f s = %.0f calls/s; service RSS %.0f MB before,"
                + " peak %.0f MB (heap at most 256 MB)%n", label, lines, elapsed, lines / elapsed, before / 1_048_576.0,
                peak.get() / 1_048_576.0);
    }

    private HttpRequest post(String path, String key, String body, String accept) {
        return HttpRequest.newBuilder(URI.create(base.toString() + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("Accept", accept).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String withProject(String body, String project) {
        String rest = body.substring(1).trim();
        return "{\"project_id\": \"" + project + "\"" + (rest.equals("}") ? "" : ", ") + rest;
    }


    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
