package org.llmplatform.tracing.stats;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /calls/stats}, as Weave's server answers it (docs/tracing-service.md#call-stats). */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallStatsApiTest {

    private static final String START = "2025-03-09T05:00:00Z";
    private static final String END = "2025-03-09T08:00:00Z";

    private TraceClient client;

    /**
     * 05:xx UTC: two roots (1 s, 3 s) with usage of two models and a 0.5 s child; 06:xx: only a deleted call;
     * 07:xx: a failed 2 s call and a running one.
     */
    @BeforeEach
    void callsOverThreeHours() {
        client = new TraceClient("stats");
        Map<String, Object> child = client.start("c4", "child", "2025-03-09T05:15:00Z");
        child.put("parent_id", "c1");
        child.put("trace_id", "trace-c1");
        Map<String, Object> failed = client.end("c3", "2025-03-09T07:20:02Z");
        failed.put("exception", "ValueError: boom");
        client.write(List.of(client.start("c1", "root", "2025-03-09T05:10:00Z"), client.start("c2", "root", "2025-03-09T05:40:00Z"),
                        child, client.start("c3", "root", "2025-03-09T07:20:00Z"), client.start("c5", "root", "2025-03-09T06:00:00Z"),
                        client.start("c6", "root", "2025-03-09T07:30:00Z")),
                List.of(withUsage(client.end("c1", "2025-03-09T05:10:01Z"),
                                Map.of("gpt-4o", Map.of("prompt_tokens", 10, "completion_tokens", 5, "total_tokens", 15))),
                        withUsage(client.end("c2", "2025-03-09T05:40:03Z"),
                                Map.of("gpt-4o", Map.of("input_tokens", 20, "output_tokens", 7),
                                        "claude-3-5-sonnet", Map.of("prompt_tokens", 1, "completion_tokens", 1))),
                        client.end("c4", "2025-03-09T05:15:00.500Z"), failed, client.end("c5", "2025-03-09T06:00:01Z")));
        client.post("/calls/delete", Map.of("project_id", client.project, "call_ids", List.of("c5"))).statusCode(200);
    }

    @Test
    void callMetricsCountEveryBucketWithLatencyPercentilesAndErrors() {
        Map<String, Object> stats = stats(Map.of("granularity", 3600, "call_metrics", List.of(
                Map.of("metric", "latency_ms", "aggregations", List.of("sum", "avg", "count", "max"), "percentiles", List.of(50, 95)),
                Map.of("metric", "error_count"), Map.of("metric", "call_count"))));
        assertEquals(START, stats.get("start"));
        assertEquals(END, stats.get("end"));
        assertEquals(3600, stats.get("granularity"));
        assertEquals("UTC", stats.get("timezone"));
        assertEquals(List.of(), stats.get("usage_buckets"));
        List<Map<String, Object>> buckets = buckets(stats, "call_buckets");
        assertEquals(List.of("2025-03-09T05:00:00Z", "2025-03-09T06:00:00Z", "2025-03-09T07:00:00Z"),
                buckets.stream().map(bucket -> bucket.get("timestamp")).toList());
        Map<String, Object> five = buckets.get(0);
        assertEquals(List.of("timestamp", "sum_latency_ms", "avg_latency_ms", "count_latency_ms", "max_latency_ms",
                "p50_latency_ms", "p95_latency_ms", "sum_error_count", "sum_call_count", "count"), List.copyOf(five.keySet()));
        assertEquals(4500, five.get("sum_latency_ms"));
        assertEquals(1500.0, number(five, "avg_latency_ms"), 1e-9);
        assertEquals(3000, five.get("max_latency_ms"));
        assertEquals(1000.0, number(five, "p50_latency_ms"), 1e-9);
        assertEquals(2800.0, number(five, "p95_latency_ms"), 1e-9); // 1000 + 0.9 * (3000 - 1000), interpolated
        assertEquals(0, five.get("sum_error_count"));
        assertEquals(3, five.get("sum_call_count"));
        assertEquals(3, five.get("count"));
        Map<String, Object> empty = buckets.get(1);
        assertEquals(0, empty.get("count"));
        assertEquals(0, empty.get("sum_latency_ms"));
        assertEquals(0.0, number(empty, "avg_latency_ms"), 0);
        assertNull(empty.get("max_latency_ms"));
        assertNull(empty.get("p50_latency_ms"));
        Map<String, Object> seven = buckets.get(2);
        assertEquals(2, seven.get("count"));
        assertEquals(1, seven.get("count_latency_ms"), "the running call has no latency");
        assertEquals(2000.0, number(seven, "p50_latency_ms"), 1e-9);
        assertEquals(1, seven.get("sum_error_count"));
    }

    @Test
    void usageMetricsAreGroupedByModelWithEveryModelInEveryBucket() {
        List<Map<String, Object>> buckets = buckets(stats(Map.of("granularity", 3600, "usage_metrics", List.of(
                Map.of("metric", "input_tokens"), Map.of("metric", "output_tokens", "aggregations", List.of("sum", "max")),
                Map.of("metric", "total_tokens")))), "usage_buckets");
        assertEquals(6, buckets.size());
        assertEquals(List.of("claude-3-5-sonnet", "gpt-4o", "claude-3-5-sonnet", "gpt-4o", "claude-3-5-sonnet", "gpt-4o"),
                buckets.stream().map(bucket -> bucket.get("model")).toList());
        Map<String, Object> gpt = buckets.get(1);
        assertEquals("2025-03-09T05:00:00Z", gpt.get("timestamp"));
        assertEquals(30.0, number(gpt, "sum_input_tokens"), 0, "prompt_tokens and input_tokens are both input");
        assertEquals(12.0, number(gpt, "sum_output_tokens"), 0);
        assertEquals(7.0, number(gpt, "max_output_tokens"), 0);
        assertEquals(15.0, number(gpt, "sum_total_tokens"), 0, "only the call that states total_tokens");
        assertEquals(2, gpt.get("count"));
        Map<String, Object> claude = buckets.get(0);
        assertEquals(1.0, number(claude, "sum_input_tokens"), 0);
        assertEquals(1, claude.get("count"));
        Map<String, Object> emptyGpt = buckets.get(3);
        assertEquals(0, emptyGpt.get("count"));
        assertEquals(0.0, number(emptyGpt, "sum_input_tokens"), 0);
        assertNull(emptyGpt.get("max_output_tokens"));
    }

    @Test
    void bucketsStartAtMultiplesOfTheGranularityFromTheEpochAndCarryTheRequestedTimezone() {
        Map<String, Object> kolkata = stats(Map.of("granularity", 3600, "timezone", "Asia/Kolkata",
                "call_metrics", List.of(Map.of("metric", "call_count"))));
        assertEquals("Asia/Kolkata", kolkata.get("timezone"));
        assertEquals(List.of("2025-03-09T10:30:00+05:30", "2025-03-09T11:30:00+05:30", "2025-03-09T12:30:00+05:30"),
                buckets(kolkata, "call_buckets").stream().map(bucket -> bucket.get("timestamp")).toList());
        List<Map<String, Object>> days = buckets(stats(Map.of("start", "2025-03-08T12:00:00Z", "end", "2025-03-10T12:00:00Z",
                "granularity", 86400, "timezone", "America/New_York", "call_metrics", List.of(Map.of("metric", "call_count")))),
                "call_buckets");
        assertEquals(List.of("2025-03-07T19:00:00-05:00", "2025-03-08T19:00:00-05:00", "2025-03-09T20:00:00-04:00"),
                days.stream().map(bucket -> bucket.get("timestamp")).toList());
        assertEquals(List.of(0, 5, 0), days.stream().map(bucket -> bucket.get("count")).toList());
    }

    @Test
    void theFilterNarrowsTheCalls() {
        List<Map<String, Object>> roots = buckets(stats(Map.of("granularity", 3600, "filter", Map.of("trace_roots_only", true),
                "call_metrics", List.of(Map.of("metric", "call_count")))), "call_buckets");
        assertEquals(List.of(2, 0, 2), roots.stream().map(bucket -> bucket.get("count")).toList());
        List<Map<String, Object>> byOp = buckets(stats(Map.of("granularity", 3600, "filter", Map.of("op_names", List.of("child")),
                "call_metrics", List.of(Map.of("metric", "call_count")))), "call_buckets");
        assertEquals(List.of(1, 0, 0), byOp.stream().map(bucket -> bucket.get("count")).toList());
    }

    @Test
    void granularityIsChosenFromTheRangeAndCoarsenedToAtMostTenThousandBuckets() {
        assertEquals(3600, stats(Map.of("call_metrics", List.of(Map.of("metric", "call_count")))).get("granularity"));
        Map<String, Object> month = stats(Map.of("start", "2025-03-01T00:00:00Z", "end", "2025-03-31T00:00:00Z", "granularity", 1,
                "call_metrics", List.of(Map.of("metric", "call_count"))));
        assertEquals(260, month.get("granularity"), "30 days / 10,000 buckets, rounded up");
        int count = buckets(month, "call_buckets").size();
        assertTrue(count <= 10_000 && count > 9_900, "buckets: " + count);
    }

    @Test
    void badRequestsAreRefusedNamingTheField() {
        client.post("/calls/stats", body(Map.of("end", "2025-03-09T04:00:00Z"))).statusCode(400)
                .body("reason", equalTo("CallStatsReq end must be after start"));
        client.post("/calls/stats", Map.of("project_id", client.project)).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "start")));
        client.post("/calls/stats", body(Map.of("call_metrics", List.of(Map.of("metric", "tokens"))))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "call_metrics", 0, "metric")));
        client.post("/calls/stats", body(Map.of("usage_metrics", List.of(Map.of("metric", "input_tokens", "aggregations", List.of("median"))))))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "usage_metrics", 0, "aggregations", 0)));
        client.post("/calls/stats", body(Map.of("timezone", "Mars/Olympus"))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "timezone")));
        client.post("/calls/stats", body(Map.of("granularity", 0))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "granularity")));
        client.post("/calls/stats", body(Map.of("start", "yesterday"))).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "start")));
        client.post("/calls/stats", body(Map.of("call_metrics", List.of(Map.of("metric", "latency_ms", "percentiles", List.of(101))))))
                .statusCode(400).body("reason", equalTo("Percentile must be between 0 and 100, got 101.0"));
        client.post("/calls/stats", body(Map.of("bucket", 1))).statusCode(422);
    }

    @Test
    void aStrangerIsRefusedBeforeTheBodyIsRead() {
        TraceClient stranger = new TraceClient("stats-stranger");
        stranger.post("/calls/stats", Map.of("project_id", client.project, "start", "nope", "granularity", -1)).statusCode(403);
    }

    private Map<String, Object> stats(Map<String, Object> extra) {
        return client.post("/calls/stats", body(extra)).statusCode(200).extract().jsonPath().getMap("$");
    }

    private Map<String, Object> body(Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(Map.of("project_id", client.project, "start", START, "end", END));
        body.putAll(extra);
        return body;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> buckets(Map<String, Object> stats, String key) {
        return (List<Map<String, Object>>) stats.get(key);
    }

    private static double number(Map<String, Object> bucket, String key) {
        return ((Number) bucket.get(key)).doubleValue();
    }

    private static Map<String, Object> withUsage(Map<String, Object> end, Map<String, Object> usage) {
        end.put("summary", Map.of("usage", usage));
        return end;
    }
}
