package org.llmplatform.tracing.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;

/**
 * {@code POST /calls/stats} over a large project (30 days in hourly buckets: avg/p50/p95 latency, call and error counts,
 * input/output/total tokens and costs per model) through the packaged service: from the V22 rollup (no filter), and
 * in the same run, as baselines, the same request answered from the calls (a filter naming every op keeps every
 * call and takes the exact path) and {@code calls/query_stats} of the project. The calls are written by
 * {@code INSERT ... SELECT} into the service's database, a day a statement, so the rollup is filled by the triggers
 * every write path fills it through. Run with {@code bench/call-stats.sh}; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class CallStatsBenchmark extends PackagedServiceBenchmark {

    private static final int CALLS = Integer.getInteger("bench.calls", 1_000_000);
    private static final int RUNS = Integer.getInteger("bench.runs", 10);
    private static final int EXACT_RUNS = Integer.getInteger("bench.exactRuns", 3);
    private static final int DAYS = 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void callStats() throws Exception {
        String user = TestIdentities.unique("callstats");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/p";
        send("cost/create", key, "{\"project_id\": \"" + project + "\", \"costs\": {\"house-model\": {\"prompt_token_cost\":"
                + " 0.000001, \"completion_token_cost\": 0.000002, \"effective_date\": \"2024-01-01T00:00:00Z\"}}}");
        long began = System.nanoTime();
        try (Connection db = database(); Statement statement = db.createStatement()) {
            // 30 days from 2025-01-01, evenly spread; traces of 4 (a root and 3 children), 5 ops, every 50th failed,
            // latency 0 to 5 s, one of three models a call with prompt, completion and total tokens.
            long perDay = (CALLS + DAYS - 1) / DAYS;
            for (long first = 1; first <= CALLS; first += perDay) {
                statement.execute("""
                        INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, ended_at,
                            attributes, inputs, output, summary, exception, svc_user_id)
                        SELECT '%1$s', lpad(g::text, 8, '0'), 't' || (g / 4),
                            CASE WHEN g %% 4 = 0 THEN NULL ELSE lpad((g - g %% 4)::text, 8, '0') END, 'op_' || (g %% 5),
                            timestamptz '2025-01-01' + (g - 1) * interval '1 second' * (%4$d * 86400.0 / %5$d),
                            timestamptz '2025-01-01' + (g - 1) * interval '1 second' * (%4$d * 86400.0 / %5$d)
                                + ((g * 7919) %% 5000) * interval '1 millisecond',
                            '{}', jsonb_build_object('question', 'question ' || g), jsonb_build_object('answer', 'answer ' || g),
                            jsonb_build_object('usage', jsonb_build_object(
                                (ARRAY['gpt-4o', 'house-model', 'claude-3-5-sonnet'])[g %% 3 + 1], jsonb_build_object(
                                'prompt_tokens', g %% 900, 'completion_tokens', g %% 300, 'total_tokens', g %% 900 + g %% 300,
                                'requests', 1))),
                            CASE WHEN g %% 50 = 0 THEN 'ValueError: boom' END, 'bench'
                        FROM generate_series(%2$d::bigint, %3$d::bigint) g""".formatted(project, first,
                        Math.min(CALLS, first + perDay - 1), DAYS, CALLS));
            }
            statement.execute("VACUUM ANALYZE tracing.calls");
            statement.execute("VACUUM ANALYZE tracing.call_stats_hours");
            statement.execute("VACUUM ANALYZE tracing.usage_stats_hours");
        }
        System.out.printf("BENCH load: %,d calls by INSERT ... SELECT (a day a statement, the rollup filled by V22's"
                + " triggers) and VACUUM ANALYZE in %.0f s%n", CALLS, (System.nanoTime() - began) / 1e9);

        String metrics = "\"start\": \"2025-01-01T00:00:00Z\", \"end\": \"2025-01-31T00:00:00Z\", \"granularity\": 3600,"
                + " \"call_metrics\": [{\"metric\": \"latency_ms\", \"aggregations\": [\"avg\"], \"percentiles\": [50, 95]},"
                + " {\"metric\": \"call_count\"}, {\"metric\": \"error_count\"}],"
                + " \"usage_metrics\": [{\"metric\": \"input_tokens\"}, {\"metric\": \"output_tokens\"},"
                + " {\"metric\": \"total_tokens\"}, {\"metric\": \"total_cost\"}]";
        String rollupBody = "{\"project_id\": \"" + project + "\", " + metrics + "}";
        String exactBody = "{\"project_id\": \"" + project + "\", " + metrics
                + ", \"filter\": {\"op_names\": [\"op_0\", \"op_1\", \"op_2\", \"op_3\", \"op_4\"]}}";
        String countBody = "{\"project_id\": \"" + project + "\"}";

        JsonNode rollup = JSON.readTree(send("calls/stats", key, rollupBody));
        JsonNode exact = JSON.readTree(send("calls/stats", key, exactBody));
        long[] rollupTimes = time("calls/stats", key, rollupBody, RUNS);
        long[] exactTimes = time("calls/stats", key, exactBody, EXACT_RUNS);
        long[] countTimes = time("calls/query_stats", key, countBody, RUNS);
        System.out.printf("BENCH calls/stats, %,d calls, 30 days hourly (%d call buckets, %d usage buckets), avg/p50/p95"
                + " latency, counts, tokens and cost of 3 models%n", CALLS, rollup.get("call_buckets").size(),
                rollup.get("usage_buckets").size());
        System.out.printf("BENCH   from the rollup: p50 %.0f ms, p95 %.0f ms (%d runs)%n", p(rollupTimes, 50),
                p(rollupTimes, 95), RUNS);
        System.out.printf("BENCH   baseline, the same from the calls (a filter of every op): p50 %.0f ms, p95 %.0f ms"
                + " (%d runs): %.0fx the rollup's p50%n", p(exactTimes, 50), p(exactTimes, 95), EXACT_RUNS,
                p(exactTimes, 50) / p(rollupTimes, 50));
        System.out.printf("BENCH   baseline, calls/query_stats of the project: p50 %.0f ms, p95 %.0f ms (%d runs):"
                + " %.2fx the rollup's p50%n", p(countTimes, 50), p(countTimes, 95), RUNS, p(countTimes, 50) / p(rollupTimes, 50));
        compare(rollup, exact);
    }

    /** Checks the two answers agree (equal but for percentiles) and prints the largest percentile difference. */
    private static void compare(JsonNode rollup, JsonNode exact) {
        double worst = 0;
        long calls = 0;
        for (String list : new String[] {"call_buckets", "usage_buckets"}) {
            if (rollup.get(list).size() != exact.get(list).size()) {
                throw new IllegalStateException(list + ": " + rollup.get(list).size() + " against " + exact.get(list).size());
            }
            for (int b = 0; b < exact.get(list).size(); b++) {
                JsonNode fromRollup = rollup.get(list).get(b);
                JsonNode fromCalls = exact.get(list).get(b);
                for (var fields = fromCalls.fieldNames(); fields.hasNext();) {
                    String field = fields.next();
                    if (field.startsWith("p") && fromCalls.get(field).isNumber()) {
                        double value = fromCalls.get(field).asDouble();
                        worst = Math.max(worst, Math.abs(fromRollup.get(field).asDouble() - value) / Math.max(value, 1));
                    } else if (!fromCalls.get(field).equals(fromRollup.get(field))) {
                        throw new IllegalStateException(list + " " + b + " " + field + ": " + fromRollup.get(field)
                                + " against " + fromCalls.get(field));
                    }
                }
                calls += list.equals("call_buckets") ? fromCalls.get("count").asLong() : 0;
            }
        }
        System.out.printf("BENCH   answers: %,d calls; counts, sums, averages and costs equal; percentiles at most"
                + " %.2f%% from the exact ones%n", calls, worst * 100);
    }

    private long[] time(String path, String key, String body, int runs) throws Exception {
        long[] nanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            long began = System.nanoTime();
            send(path, key, body);
            nanos[i] = System.nanoTime() - began;
        }
        return nanos;
    }

    private static double p(long[] nanos, int percentile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(percentile / 100.0 * sorted.length) - 1] / 1e6;
    }

    private String send(String path, String key, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base.toString() + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
