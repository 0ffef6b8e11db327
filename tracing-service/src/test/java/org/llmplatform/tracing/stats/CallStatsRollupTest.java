package org.llmplatform.tracing.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * calls/stats from the hourly rollup (a request without filter, buckets of whole hours) against the same request
 * answered from the calls (a filter naming every op keeps every call but is answered exactly): counts, sums and
 * averages equal, latency percentiles within {@link LatencyHistogram#RELATIVE_ERROR}, over calls written by every
 * path, resent, ended across an hour, deleted and priced (docs/tracing-service.md#call-stats-rollup).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallStatsRollupTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> OPS = List.of("chat", "tool", "agent", "many");
    private static final Instant DAY = Instant.parse("2025-04-01T00:00:00Z");

    @Inject
    Pool pool;

    private TraceClient client;
    private List<Object> v1Batch;
    private Map<String, Object> completeBatch;

    /**
     * 05:xx to 10:xx UTC: calls through upsert_batch, calls/complete and v2 call/start + call/end; one ended across
     * 06:00, one running, failed ones, usage of a priced and an unpriced model, 60 calls of spread latencies at 10:xx.
     */
    @BeforeEach
    void callsOfEveryWritePath() {
        client = new TraceClient("rollup");
        v1Batch = new ArrayList<>();
        v1Batch.add(start("a", "chat", "05:10:00"));
        v1Batch.add(end("a", "05:10:00", usage("house-a", Map.of("prompt_tokens", 100, "completion_tokens", 20, "total_tokens", 120)), null));
        v1Batch.add(start("b", "tool", "05:20:00"));
        v1Batch.add(end("b", "05:20:00.001", Map.of(), null));
        v1Batch.add(start("c", "chat", "05:59:59.900"));
        v1Batch.add(end("c", "06:00:00.300", usage("house-a", Map.of("input_tokens", 7, "output_tokens", 3),
                "house-b", Map.of("prompt_tokens", 11, "completion_tokens", 13, "cache_read_input_tokens", 5)), null));
        v1Batch.add(start("d", "tool", "06:30:00"));
        v1Batch.add(end("d", "06:30:00.050", Map.of(), "ValueError: boom"));
        v1Batch.add(start("e", "agent", "07:05:00"));
        v1Batch.add(start("f", "chat", "07:10:00"));
        v1Batch.add(end("f", "07:12:03.456", usage("house-b", Map.of("prompt_tokens", 1000, "completion_tokens", 500,
                "total_tokens", 1500, "cache_creation_input_tokens", 40)), null));
        v1Batch.add(start("k", "tool", "06:40:00"));
        v1Batch.add(end("k", "06:40:01", usage("house-a", Map.of("prompt_tokens", 9)), "Boom"));
        client.post("/call/upsert_batch", Map.of("batch", v1Batch)).statusCode(200);

        List<Map<String, Object>> complete = new ArrayList<>(List.of(
                complete("g", "agent", "08:15:00", "08:15:03.210", null, usage("house-a", Map.of("input_tokens", 300, "output_tokens", 60))),
                complete("h", "chat", "08:45:00", "08:45:00.777", "g", usage("house-a", Map.of("prompt_tokens", 50, "completion_tokens", 5)))));
        for (int i = 0; i < 60; i++) {
            long latency = (i * 7919L) % 20_000; // 0 to 20 s, spread
            Instant started = DAY.plus(Duration.ofHours(10)).plusSeconds(i * 55L);
            complete.add(complete("m" + i, "many", time(started), time(started.plusMillis(latency)), null,
                    usage(i % 2 == 0 ? "house-a" : "house-b", Map.of("prompt_tokens", i, "completion_tokens", 2 * i))));
        }
        completeBatch = Map.of("batch", complete);
        client.post("/v2/" + client.project + "/calls/complete", completeBatch).statusCode(200);

        v2StartAndEnd("i", "09:20:00", "09:20:00.005", Map.of());
        v2StartAndEnd("j", "09:50:00", "09:51:30", usage("house-b", Map.of("prompt_tokens", 2, "completion_tokens", 3)));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("k"))).statusCode(200);
    }

    @Test
    void theRollupAndTheCallsGiveTheSameAnswers() {
        for (String[] range : List.of(new String[] {"2025-04-01T05:00:00Z", "2025-04-01T11:00:00Z"},
                new String[] {"2025-04-01T05:30:00.500Z", "2025-04-01T10:15:00Z"},
                new String[] {"2025-04-01T10:05:00Z", "2025-04-01T10:40:00Z"})) {
            for (long granularity : List.of(3600L, 7200L, 86400L)) {
                assertSameAnswers(range[0], range[1], granularity, false);
                assertSameAnswers(range[0], range[1], granularity, true);
            }
        }
        long[] kinds = new long[2];
        for (Row row : pool.preparedQuery("SELECT root, sum(calls)::bigint AS calls FROM tracing.call_stats_hours"
                + " WHERE project_id = $1 GROUP BY root").execute(Tuple.of(client.project)).await().indefinitely()) {
            kinds[row.getBoolean("root") ? 1 : 0] = row.getLong("calls");
        }
        assertTrue(kinds[0] > 0 && kinds[1] > 0, "the rollup keeps the roots apart: " + java.util.Arrays.toString(kinds));
    }

    @Test
    void theRollupCountsEachVisibleCallOnceByTheHourItStarted() {
        Map<Long, long[]> hours = rollupHours();
        assertEquals(List.of(5L, 6L, 7L, 8L, 9L, 10L), List.copyOf(hours.keySet()), "hours of started_at, none at 11:00");
        assertEquals(List.of(3L, 0L, 3L), List.of(hours.get(5L)[0], hours.get(5L)[1], hours.get(5L)[2]),
                "05:xx: a, b and c (ended at 06:00:00.300): 3 calls, no error, 3 ended");
        assertEquals(List.of(1L, 1L, 1L), List.of(hours.get(6L)[0], hours.get(6L)[1], hours.get(6L)[2]), "06:xx: d failed, k deleted");
        assertEquals(List.of(2L, 0L, 1L), List.of(hours.get(7L)[0], hours.get(7L)[1], hours.get(7L)[2]), "07:xx: e runs");
        assertEquals(60L, hours.get(10L)[0]);
        assertEquals(0 + 1 + 400, hours.get(5L)[3], "latency sum of 05:xx: 0 + 1 + 400 ms");
    }

    @Test
    void aResentCallCountsOnce() {
        Map<Long, long[]> before = rollupHours();
        JsonNode answer = stats("2025-04-01T05:00:00Z", "2025-04-01T11:00:00Z", 3600, false, false);
        client.post("/call/upsert_batch", Map.of("batch", v1Batch)).statusCode(200);
        client.post("/v2/" + client.project + "/calls/complete", completeBatch).statusCode(200);
        v2StartAndEnd("i", "09:20:00", "09:20:00.005", Map.of());
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("k"))).statusCode(200);
        assertEquals(toLists(before), toLists(rollupHours()));
        assertEquals(answer, stats("2025-04-01T05:00:00Z", "2025-04-01T11:00:00Z", 3600, false, false));
    }

    @Test
    void aDeletedCallLeavesTheRollup() {
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("g"))).statusCode(200);
        assertFalse(rollupHours().containsKey(8L), "g and its child h are gone: 08:xx counts nothing");
        JsonNode usage = stats("2025-04-01T08:00:00Z", "2025-04-01T09:00:00Z", 3600, false, false).get("usage_buckets");
        assertEquals(0, usage.size(), "no model has usage left in 08:xx");
        assertSameAnswers("2025-04-01T05:00:00Z", "2025-04-01T11:00:00Z", 3600, false);
    }

    @Test
    void costsAreTokensTimesThePriceInEffectAtTheBucketStart() {
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("house-a", Map.of("prompt_token_cost",
                0.000002, "completion_token_cost", 0.000008, "effective_date", "2025-01-01T00:00:00Z")))).statusCode(200);
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("house-a", Map.of("prompt_token_cost",
                0.000003, "completion_token_cost", 0.00001, "effective_date", "2025-04-01T08:00:00Z")))).statusCode(200);
        JsonNode buckets = stats("2025-04-01T05:00:00Z", "2025-04-01T11:00:00Z", 3600, false, false).get("usage_buckets");
        for (JsonNode bucket : buckets) {
            double input = bucket.get("sum_input_tokens").asDouble();
            double output = bucket.get("sum_output_tokens").asDouble();
            boolean priced = bucket.get("model").asText().equals("house-a");
            boolean later = bucket.get("timestamp").asText().compareTo("2025-04-01T08:00:00Z") >= 0;
            double inputCost = priced ? input * (later ? 0.000003 : 0.000002) : 0;
            double outputCost = priced ? output * (later ? 0.00001 : 0.000008) : 0;
            assertEquals(inputCost, bucket.get("sum_input_cost").asDouble(), 0, bucket.toString());
            assertEquals(outputCost, bucket.get("sum_output_cost").asDouble(), 0, bucket.toString());
            assertEquals(inputCost + outputCost, bucket.get("sum_total_cost").asDouble(), 0, bucket.toString());
        }
        assertNotEquals(0.0, buckets.get(0).get("sum_input_cost").asDouble(), "05:xx house-a: 107 input tokens");
        assertSameAnswers("2025-04-01T05:30:00Z", "2025-04-01T10:30:00Z", 3600, false);
    }

    @Test
    void concurrentWritersOfOneHourAllCountOnce() throws Exception {
        List<Map<String, Object>> batches = new ArrayList<>();
        for (int writer = 0; writer < 6; writer++) {
            List<Map<String, Object>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                calls.add(complete("w" + writer + "-" + i, "many", "12:0" + (i % 10) + ":00", "12:0" + (i % 10) + ":0" + (writer + 1),
                        null, usage("house-a", Map.of("prompt_tokens", writer, "completion_tokens", i))));
            }
            batches.add(Map.of("batch", calls));
        }
        client.postTwiceAtOnce("/v2/" + client.project + "/calls/complete", batches); // the resends racing the first writes
        assertEquals(120, rollupHours().get(12L)[0]);
        assertSameAnswers("2025-04-01T12:00:00Z", "2025-04-01T13:00:00Z", 3600, false);
    }

    @Test
    void theDatabaseAndTheServiceCutTheSameHistogramBuckets() {
        List<Long> latencies = new ArrayList<>();
        for (int power = 0; power < 45; power++) {
            for (long near = -1; near <= 1; near++) {
                latencies.add(Math.max(0, (1L << power) + near));
            }
            latencies.add((1L << power) * 3 / 2 + 1);
        }
        for (Row row : pool.preparedQuery("SELECT v, tracing.latency_bucket(v) AS bucket FROM unnest($1::bigint[]) v")
                .execute(Tuple.of(latencies.toArray(Long[]::new))).await().indefinitely()) {
            assertEquals(LatencyHistogram.bucket(row.getLong("v")), row.getInteger("bucket"), "latency " + row.getLong("v"));
        }
    }

    /** {@code rootsOnly}: both for the trace roots alone, as the dashboard asks. */
    private void assertSameAnswers(String start, String end, long granularity, boolean rootsOnly) {
        JsonNode rollup = stats(start, end, granularity, false, rootsOnly);
        JsonNode exact = stats(start, end, granularity, true, rootsOnly);
        String where = start + " to " + end + " by " + granularity + " s" + (rootsOnly ? ", roots" : "");
        for (String list : List.of("call_buckets", "usage_buckets")) {
            assertEquals(exact.get(list).size(), rollup.get(list).size(), where + " " + list);
            for (int b = 0; b < exact.get(list).size(); b++) {
                JsonNode expected = exact.get(list).get(b);
                JsonNode actual = rollup.get(list).get(b);
                assertEquals(List.copyOf(fieldNames(expected)), List.copyOf(fieldNames(actual)), where);
                for (String field : fieldNames(expected)) {
                    if (field.startsWith("p") && !expected.get(field).isNull()) {
                        double exactValue = expected.get(field).asDouble();
                        double error = Math.abs(actual.get(field).asDouble() - exactValue);
                        assertTrue(error <= exactValue * LatencyHistogram.RELATIVE_ERROR + 1e-9,
                                where + " " + field + ": " + actual.get(field) + " against " + exactValue);
                    } else {
                        assertEquals(expected.get(field), actual.get(field), where + " " + list + " " + b + " " + field);
                    }
                }
            }
        }
        assertTrue(exact.get("call_buckets").size() > 0);
    }

    private JsonNode stats(String start, String end, long granularity, boolean exactly, boolean rootsOnly) {
        Map<String, Object> body = new HashMap<>(Map.of("project_id", client.project, "start", start, "end", end,
                "granularity", granularity,
                "call_metrics", List.of(
                        Map.of("metric", "latency_ms", "aggregations", List.of("sum", "avg", "count", "count_true", "count_false"),
                                "percentiles", List.of(0, 25, 50, 90, 95, 99, 100)),
                        Map.of("metric", "call_count", "aggregations", List.of("sum", "avg", "min", "max", "count"), "percentiles", List.of(50)),
                        Map.of("metric", "error_count", "aggregations",
                                List.of("sum", "avg", "min", "max", "count", "count_true", "count_false"))),
                "usage_metrics", List.of(Map.of("metric", "input_tokens", "aggregations", List.of("sum", "avg", "count")),
                        Map.of("metric", "output_tokens"), Map.of("metric", "total_tokens", "aggregations", List.of("sum", "avg", "count")),
                        Map.of("metric", "cache_read_input_tokens", "aggregations", List.of("sum", "count")),
                        Map.of("metric", "cache_creation_input_tokens", "aggregations", List.of("avg")),
                        Map.of("metric", "input_cost"), Map.of("metric", "output_cost"), Map.of("metric", "total_cost"))));
        Map<String, Object> filter = new HashMap<>();
        if (exactly) {
            filter.put("op_names", OPS);
        }
        if (rootsOnly) {
            filter.put("trace_roots_only", true);
        }
        body.put("filter", filter);
        try {
            return JSON.readTree(client.post("/calls/stats", body).statusCode(200).extract().asString());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Hour of the day → calls, errors, ended, latency sum of this project's rollup rows. */
    private Map<Long, long[]> rollupHours() {
        Map<Long, long[]> hours = new java.util.TreeMap<>();
        for (Row row : pool.preparedQuery("SELECT hour, sum(calls)::bigint AS calls, sum(errors)::bigint AS errors,"
                + " sum(ended)::bigint AS ended, sum(latency_sum)::bigint AS latency_sum FROM tracing.call_stats_hours"
                + " WHERE project_id = $1 GROUP BY hour HAVING (sum(calls), sum(errors), sum(ended)) <> (0, 0, 0)")
                .execute(Tuple.of(client.project)).await().indefinitely()) {
            hours.put((row.getLong("hour") - DAY.getEpochSecond()) / 3600, new long[] {row.getLong("calls"),
                    row.getLong("errors"), row.getLong("ended"), row.getLong("latency_sum")});
        }
        return hours;
    }

    private static Map<Long, List<Long>> toLists(Map<Long, long[]> hours) {
        Map<Long, List<Long>> lists = new java.util.TreeMap<>();
        hours.forEach((hour, values) -> lists.put(hour, java.util.Arrays.stream(values).boxed().toList()));
        return lists;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return names;
    }

    private void v2StartAndEnd(String id, String startedAt, String endedAt, Map<String, Object> summary) {
        Map<String, Object> start = client.start(id, "chat", at(startedAt));
        client.post("/v2/" + client.project + "/call/start", Map.of("start", start)).statusCode(200);
        client.post("/v2/" + client.project + "/call/end", Map.of("end", Map.of("project_id", client.project, "id", id,
                "trace_id", "trace-" + id, "started_at", at(startedAt), "ended_at", at(endedAt), "summary", summary)))
                .statusCode(200);
    }

    private Map<String, Object> start(String id, String op, String startedAt) {
        return Map.of("mode", "start", "req", Map.of("start", client.start(id, op, at(startedAt))));
    }

    private Map<String, Object> end(String id, String endedAt, Map<String, Object> summary, String exception) {
        Map<String, Object> end = client.end(id, at(endedAt));
        end.put("summary", summary);
        if (exception != null) {
            end.put("exception", exception);
        }
        return Map.of("mode", "end", "req", Map.of("end", end));
    }

    private Map<String, Object> complete(String id, String op, String startedAt, String endedAt, String parent,
            Map<String, Object> summary) {
        Map<String, Object> call = new HashMap<>(Map.of("project_id", client.project, "id", id, "trace_id",
                parent == null ? "trace-" + id : "trace-" + parent, "op_name", op, "started_at", at(startedAt),
                "ended_at", at(endedAt), "attributes", Map.of(), "inputs", Map.of(), "summary", summary));
        if (parent != null) {
            call.put("parent_id", parent);
        }
        return call;
    }

    private static Map<String, Object> usage(Object... modelsAndCounts) {
        Map<String, Object> usage = new HashMap<>();
        for (int i = 0; i < modelsAndCounts.length; i += 2) {
            usage.put((String) modelsAndCounts[i], modelsAndCounts[i + 1]);
        }
        return Map.of("usage", usage);
    }

    private static String at(String time) {
        return time.startsWith("2025") ? time : "2025-04-01T" + time + "Z";
    }

    private static String time(Instant instant) {
        return instant.toString();
    }
}
