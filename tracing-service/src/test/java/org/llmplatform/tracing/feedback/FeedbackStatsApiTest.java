package org.llmplatform.tracing.feedback;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /feedback/stats}, {@code /feedback/payload_schema} and {@code /feedback/aggregate}, as Weave's server answers them. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FeedbackStatsApiTest {

    private static final String START = "2025-03-09T05:00:00Z";
    private static final String END = "2025-03-09T08:00:00Z";

    @Inject
    Pool pool;

    private TraceClient client;

    /**
     * 05:10 and 05:40: scores 0.5 (passed) and 1.5 (failed) of monitor versions v1 and v2; 07:20 a score 3 (passed) of
     * v1, 07:30 a note, 07:50 a score "high" of v3 with odd keys; 09:00 a score outside the range.
     */
    @BeforeEach
    void feedbackOverThreeHours() {
        client = new TraceClient("feedback-stats");
        scored("2025-03-09T05:10:00Z", "my_scorer", "mon:v1", Map.of("score", 0.5, "passed", true, "label", "good"));
        scored("2025-03-09T05:40:00Z", "my_scorer", "mon:v2", Map.of("score", 1.5, "passed", false, "label", "bad"));
        scored("2025-03-09T07:20:00Z", "other", "mon:v1", Map.of("score", 3, "passed", true, "label", "good"));
        Map<String, Object> note = new HashMap<>(Map.of("project_id", client.project, "weave_ref", callRef("c1"),
                "feedback_type", "wandb.note.1", "payload", Map.of("note", "hi")));
        at("2025-03-09T07:30:00Z", client.post("/feedback/create", note).statusCode(200).extract().path("id"));
        Map<String, Object> odd = new HashMap<>(Map.of("score", "high", "tags", List.of("a", "b"), "nested", List.of(Map.of("x", 1)),
                "weird key", 1, "dot.key", 2));
        odd.put("maybe", null);
        scored("2025-03-09T07:50:00Z", "my_scorer", "mon:v3", odd);
        scored("2025-03-09T09:00:00Z", "my_scorer", "mon:v1", Map.of("score", 100));
    }

    @Test
    void numericAndBooleanMetricsAreAggregatedInEveryBucketAndOverTheWindow() {
        Map<String, Object> stats = stats(Map.of("granularity", 3600, "metrics", List.of(
                Map.of("json_path", "output.score", "aggregations", List.of("sum", "avg", "min", "max", "count"),
                        "percentiles", List.of(50)),
                Map.of("json_path", "output.passed", "value_type", "boolean"))));
        assertEquals(START, stats.get("start"));
        assertEquals(END, stats.get("end"));
        assertEquals(3600, stats.get("granularity"));
        assertEquals("UTC", stats.get("timezone"));
        List<Map<String, Object>> buckets = buckets(stats);
        assertEquals(List.of("2025-03-09T05:00:00Z", "2025-03-09T06:00:00Z", "2025-03-09T07:00:00Z"),
                buckets.stream().map(bucket -> bucket.get("timestamp")).toList());
        Map<String, Object> five = buckets.get(0);
        assertEquals(List.of("timestamp", "sum_output_score", "avg_output_score", "min_output_score", "max_output_score",
                "count_output_score", "p50_output_score", "count_true_output_passed", "count_false_output_passed", "count"),
                List.copyOf(five.keySet()));
        assertEquals(2.0, five.get("sum_output_score"));
        assertEquals(1.0, five.get("avg_output_score"));
        assertEquals(0.5, five.get("min_output_score"));
        assertEquals(1.5, five.get("max_output_score"));
        assertEquals(2, five.get("count_output_score"));
        assertEquals(1.0, five.get("p50_output_score"));
        assertEquals(1, five.get("count_true_output_passed"));
        assertEquals(1, five.get("count_false_output_passed"));
        assertEquals(2, five.get("count"));
        Map<String, Object> six = buckets.get(1);
        assertEquals(0, six.get("count"));
        assertEquals(0, ((Number) six.get("sum_output_score")).intValue());
        assertEquals(0, ((Number) six.get("avg_output_score")).intValue());
        assertNull(six.get("min_output_score"));
        assertNull(six.get("p50_output_score"));
        assertEquals(0, six.get("count_true_output_passed"));
        Map<String, Object> seven = buckets.get(2);
        assertEquals(3, seven.get("count")); // the score 3, the note and the "high" score: one number among them
        assertEquals(3.0, seven.get("sum_output_score"));
        assertEquals(1, seven.get("count_output_score"));
        assertEquals(1, seven.get("count_true_output_passed"));
        assertEquals(0, seven.get("count_false_output_passed"));
        Map<String, Object> window = map(stats.get("window_stats"));
        Map<String, Object> score = map(window.get("output_score"));
        assertEquals(List.of("sum", "avg", "min", "max", "count", "p50"), List.copyOf(score.keySet()));
        assertEquals(5.0, score.get("sum"));
        assertEquals(5.0 / 3, (Double) score.get("avg"), 1e-12);
        assertEquals(0.5, score.get("min"));
        assertEquals(3.0, score.get("max"));
        assertEquals(3.0, score.get("count"));
        assertEquals(1.5, score.get("p50"));
        assertEquals(Map.of("count_true", 2.0, "count_false", 1.0), window.get("output_passed"));
    }

    @Test
    void metricsWithoutAggregationsTakeTheirTypesDefaultsAndTheGranularityFollowsTheRange() {
        Map<String, Object> stats = stats(Map.of("timezone", "Asia/Kolkata", "metrics", List.of(
                Map.of("json_path", "output.score", "percentiles", List.of(95)),
                Map.of("json_path", "output.passed", "value_type", "boolean", "percentiles", List.of(50)),
                Map.of("json_path", "output.label", "value_type", "categorical"))));
        assertEquals(3600, stats.get("granularity"));
        assertEquals("Asia/Kolkata", stats.get("timezone"));
        List<Map<String, Object>> buckets = buckets(stats);
        assertEquals("2025-03-09T10:30:00+05:30", buckets.get(0).get("timestamp"));
        assertEquals(List.of("timestamp", "avg_output_score", "min_output_score", "max_output_score", "p95_output_score",
                "count_true_output_passed", "count_false_output_passed", "count"), List.copyOf(buckets.get(0).keySet()));
        assertEquals(1.45, (Double) buckets.get(0).get("p95_output_score"), 1e-12); // 0.5 + 0.95 * (1.5 - 0.5)
    }

    @Test
    void triggerRefsMatchExactlyOrEveryVersionAndFeedbackTypesExactly() {
        Map<String, Object> countOnly = Map.of("json_path", "output.score", "aggregations", List.of("count"));
        Map<String, Object> v1 = stats(Map.of("trigger_ref", monitor("mon:v1"), "metrics", List.of(countOnly)));
        assertEquals(List.of(1, 0, 1), buckets(v1).stream().map(bucket -> bucket.get("count")).toList());
        Map<String, Object> every = stats(Map.of("trigger_ref", monitor("mon:*"), "metrics", List.of(countOnly)));
        assertEquals(List.of(2, 0, 2), buckets(every).stream().map(bucket -> bucket.get("count")).toList());
        Map<String, Object> notes = stats(Map.of("feedback_type", "wandb.note.1", "metrics", List.of(countOnly)));
        assertEquals(List.of(0, 0, 1), buckets(notes).stream().map(bucket -> bucket.get("count")).toList());
        Map<String, Object> noteScores = map(map(notes.get("window_stats")).get("output_score"));
        assertEquals(List.of("count"), List.copyOf(noteScores.keySet()));
        assertNull(noteScores.get("count"));
    }

    @Test
    void withoutMetricsTheAnswerHasNoBucketsAndAnHourlyGranularity() {
        Map<String, Object> stats = client.post("/feedback/stats", Map.of("project_id", client.project, "start", START,
                "end", END)).statusCode(200).extract().as(Map.class);
        assertEquals(Map.of("start", START, "end", END, "granularity", 3600, "timezone", "UTC", "buckets", List.of()),
                without(stats, "window_stats"));
        assertNull(stats.get("window_stats"));
    }

    @Test
    void badStatsRequestsAreRefusedNamingTheField() {
        Map<String, Object> score = Map.of("json_path", "output.score");
        client.post("/feedback/stats", Map.of("project_id", client.project, "metrics", List.of(score))).statusCode(422)
                .body("detail[0].loc", contains("body", "start"));
        client.post("/feedback/stats", body(Map.of("start", "yesterday"))).statusCode(422)
                .body("detail[0].loc", contains("body", "start"));
        client.post("/feedback/stats", body(Map.of("metrics", List.of(Map.of("json_path", "output score"))))).statusCode(400)
                .body("reason", equalTo("json_path may only contain [a-zA-Z0-9_.], got: 'output score'"));
        client.post("/feedback/stats", body(Map.of("metrics", List.of(Map.of("json_path", "s", "value_type", "text")))))
                .statusCode(422).body("detail[0].loc", contains("body", "metrics", 0, "value_type"));
        client.post("/feedback/stats", body(Map.of("metrics", List.of(Map.of("json_path", "s", "aggregations", List.of("median"))))))
                .statusCode(422).body("detail[0].loc", contains("body", "metrics", 0, "aggregations", 0));
        client.post("/feedback/stats", body(Map.of("metrics", List.of(Map.of("json_path", "s", "percentiles", List.of(101))))))
                .statusCode(400).body("reason", equalTo("Percentile must be between 0 and 100, got 101.0"));
        client.post("/feedback/stats", body(Map.of("metrics", List.of(Map.of("json_path", "s", "value_type", "categorical")))))
                .statusCode(400).body("reason", equalTo("At least one metric with aggregations is required"));
        client.post("/feedback/stats", body(Map.of("timezone", "Mars/Olympus"))).statusCode(422)
                .body("detail[0].loc", contains("body", "timezone"));
        client.post("/feedback/stats", body(Map.of("metric", List.of()))).statusCode(422)
                .body("detail[0].loc", contains("body", "metric"));
    }

    @Test
    void thePayloadSchemaHasEveryLeafOfTheNewestPayloadOfEachTriggerRef() {
        Map<String, Object> schema = client.post("/feedback/payload_schema", body(Map.of())).statusCode(200)
                .extract().as(Map.class);
        assertEquals(List.of(path("note", "categorical"), path("output.label", "categorical"), path("output.maybe", "boolean"),
                path("output.passed", "boolean"), path("output.score", "categorical"), path("output.tags", "categorical")),
                schema.get("paths"));
        Map<String, Object> v1 = client.post("/feedback/payload_schema", body(Map.of("trigger_ref", monitor("mon:v1"))))
                .statusCode(200).extract().as(Map.class);
        assertEquals(List.of(path("output.label", "categorical"), path("output.passed", "boolean"),
                path("output.score", "numeric")), v1.get("paths"));
        Map<String, Object> none = client.post("/feedback/payload_schema", body(Map.of("feedback_type", "other")))
                .statusCode(200).extract().as(Map.class);
        assertEquals(Map.of("paths", List.of()), none);
    }

    @Test
    void theSampleLimitIsBetweenOneAndFiveThousand() {
        client.post("/feedback/payload_schema", body(Map.of("sample_limit", 0))).statusCode(422)
                .body("detail[0].loc", contains("body", "sample_limit"));
        client.post("/feedback/payload_schema", body(Map.of("sample_limit", 5001))).statusCode(422)
                .body("detail[0].msg", equalTo("Input should be less than or equal to 5000"));
        // One trigger ref sampled: here the first in order, mon:v1, whose newest payload is the score 3.
        Map<String, Object> one = client.post("/feedback/payload_schema", body(Map.of("sample_limit", 1))).statusCode(200)
                .extract().as(Map.class);
        assertEquals(List.of(path("output.label", "categorical"), path("output.passed", "boolean"),
                path("output.score", "numeric")), one.get("paths"));
    }

    @Test
    void aStrangersKeyIsRefused() {
        TraceClient stranger = new TraceClient("feedback-stranger");
        stranger.post("/feedback/stats", body(Map.of())).statusCode(403);
        stranger.post("/feedback/payload_schema", body(Map.of())).statusCode(403);
        stranger.post("/feedback/aggregate", Map.of("project_id", client.project, "after_ms", -1)).statusCode(403);
    }

    @Test
    void withoutBucketsNorGroupsTheAggregateIsOneRowOfTheWindow() {
        Map<String, Object> all = aggregate(Map.of());
        assertEquals(Map.of("time_bucket_seconds", "null", "after_ms", millis(START), "before_ms", millis(END)),
                Map.of("time_bucket_seconds", String.valueOf(all.get("time_bucket_seconds")), "after_ms", all.get("after_ms"),
                        "before_ms", all.get("before_ms")));
        List<Map<String, Object>> rows = buckets(all);
        assertEquals(1, rows.size());
        Map<String, Object> row = new HashMap<>(rows.get(0));
        assertNull(row.remove("time_bucket_start_ms"));
        assertEquals(Map.of("group", Map.of(), "total_count", 5, "scored_count", 0, "tag_counts", Map.of(),
                "rating_counts", Map.of(), "rating_sums", Map.of()), row);
        Map<String, Object> empty = aggregate(Map.of("after_ms", millis(END), "before_ms", millis(END) + 3_600_000L));
        assertEquals(List.of(0), buckets(empty).stream().map(bucket -> bucket.get("total_count")).toList());
    }

    @Test
    void bucketsAreSparseAndGroupsAreInByteOrder() {
        List<Map<String, Object>> hourly = buckets(aggregate(Map.of("time_bucket_seconds", 3600)));
        assertEquals(List.of(millis(START), millis("2025-03-09T07:00:00Z")),
                hourly.stream().map(bucket -> ((Number) bucket.get("time_bucket_start_ms")).longValue()).toList());
        assertEquals(List.of(2, 3), hourly.stream().map(bucket -> bucket.get("total_count")).toList());
        List<Map<String, Object>> byScorer = buckets(aggregate(Map.of("group_by", List.of("scorer_id", "span_status_code"))));
        assertEquals(List.of(Map.of("scorer_id", "", "span_status_code", "UNSET"),
                Map.of("scorer_id", "my_scorer", "span_status_code", "UNSET"),
                Map.of("scorer_id", "other", "span_status_code", "UNSET")),
                byScorer.stream().map(bucket -> bucket.get("group")).toList());
        assertEquals(List.of(1, 3, 1), byScorer.stream().map(bucket -> bucket.get("total_count")).toList());
        List<Map<String, Object>> hourlyByScorer = buckets(aggregate(Map.of("time_bucket_seconds", 3600,
                "group_by", List.of("scorer_id", "scorer_id"))));
        assertEquals(List.of(List.of(millis(START), Map.of("scorer_id", "my_scorer"), 2),
                List.of(millis("2025-03-09T07:00:00Z"), Map.of("scorer_id", ""), 1),
                List.of(millis("2025-03-09T07:00:00Z"), Map.of("scorer_id", "my_scorer"), 1),
                List.of(millis("2025-03-09T07:00:00Z"), Map.of("scorer_id", "other"), 1)),
                hourlyByScorer.stream().map(bucket -> List.of(((Number) bucket.get("time_bucket_start_ms")).longValue(),
                        bucket.get("group"), bucket.get("total_count"))).toList());
    }

    @Test
    void theAggregateFiltersAsTheReferenceDoes() {
        assertEquals(4, total(Map.of("feedback_types", List.of("wandb.runnable*"))));
        assertEquals(1, total(Map.of("feedback_types", List.of("wandb.note"))));
        assertEquals(4, total(Map.of("monitor_ids", List.of("mon"))));
        assertEquals(4, total(Map.of("monitor_ids", List.of("mo*"))));
        assertEquals(0, total(Map.of("monitor_ids", List.of("mo"))));
        assertEquals(1, total(Map.of("scorer_ids", List.of("other"))));
        assertEquals(0, total(Map.of("span_types", List.of("agent_turn", "agent_conversation"))));
        assertEquals(0, total(Map.of("tags", List.of("toxic"))));
        assertEquals(0, total(Map.of("rating_min", 0.5)));
        assertEquals(5, total(Map.of("span_agent_names", List.of("", "agent"))));
        assertEquals(0, total(Map.of("span_agent_names", List.of("agent"))));
    }

    /**
     * 2025-03-10: 00:10 s1 tags toxic+rude, ratings _rating_ 0.2 and helpful 0.5, agent a1 1.0 ERROR; 00:20 s1 tag toxic,
     * a1 1.0 OK; 01:30 s2 _rating_ 0.9, a2 2.0 OK; 01:40 s2 nothing scored, the defaults.
     */
    private void agentScores() {
        agentScored("2025-03-10T00:10:00Z", "s1", List.of("toxic", "rude"), Map.of("_rating_", 0.2, "helpful", 0.5), "a1",
                "1.0", "ERROR");
        agentScored("2025-03-10T00:20:00Z", "s1", List.of("toxic"), Map.of(), "a1", "1.0", "OK");
        agentScored("2025-03-10T01:30:00Z", "s2", List.of(), Map.of("_rating_", 0.9), "a2", "2.0", "OK");
        agentScored("2025-03-10T01:40:00Z", "s2", null, null, null, null, null);
    }

    @Test
    void theAggregateCountsStoredTagsAndRatingsPerGroup() {
        agentScores();
        Map<String, Object> window = Map.of("after_ms", millis("2025-03-10T00:00:00Z"), "before_ms",
                millis("2025-03-10T03:00:00Z"));
        Map<String, Object> all = buckets(aggregate(window)).get(0);
        assertEquals(List.of(4, 3, Map.of("rude", 1, "toxic", 2), Map.of("_rating_", 2, "helpful", 1),
                Map.of("_rating_", 0.2 + 0.9, "helpful", 0.5)), List.of(all.get("total_count"), all.get("scored_count"),
                all.get("tag_counts"), all.get("rating_counts"), all.get("rating_sums")));

        Map<String, Object> byAgent = new HashMap<>(window);
        byAgent.put("group_by", List.of("span_agent_name", "span_agent_version"));
        assertEquals(List.of(
                List.of(Map.of("span_agent_name", "", "span_agent_version", ""), 1, 0, Map.of(), Map.of()),
                List.of(Map.of("span_agent_name", "a1", "span_agent_version", "1.0"), 2, 2, Map.of("rude", 1, "toxic", 2),
                        Map.of("_rating_", 0.2, "helpful", 0.5)),
                List.of(Map.of("span_agent_name", "a2", "span_agent_version", "2.0"), 1, 1, Map.of(), Map.of("_rating_", 0.9))),
                buckets(aggregate(byAgent)).stream().map(bucket -> List.of(bucket.get("group"), bucket.get("total_count"),
                        bucket.get("scored_count"), bucket.get("tag_counts"), bucket.get("rating_sums"))).toList());

        Map<String, Object> byStatus = new HashMap<>(window);
        byStatus.put("group_by", List.of("span_status_code"));
        byStatus.put("time_bucket_seconds", 3600);
        assertEquals(List.of(List.of(millis("2025-03-10T00:00:00Z"), "ERROR", 1),
                List.of(millis("2025-03-10T00:00:00Z"), "OK", 1), List.of(millis("2025-03-10T01:00:00Z"), "OK", 1),
                List.of(millis("2025-03-10T01:00:00Z"), "UNSET", 1)),
                buckets(aggregate(byStatus)).stream().map(bucket -> List.of(((Number) bucket.get("time_bucket_start_ms")).longValue(),
                        map(bucket.get("group")).get("span_status_code"), bucket.get("total_count"))).toList());
    }

    @Test
    void theTagRatingAndAgentFiltersReadTheStoredColumns() {
        agentScores();
        Map<String, Object> window = Map.of("after_ms", millis("2025-03-10T00:00:00Z"), "before_ms",
                millis("2025-03-10T03:00:00Z"));
        Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        expected.put("tags toxic", 2);
        expected.put("tags rude, none", 1);
        expected.put("rating_min 0.5", 1);
        expected.put("rating_max 0.5", 1);
        expected.put("rating_min 0", 2);
        expected.put("span_agent_names a1", 2);
        expected.put("span_agent_names empty", 1);
        Map<String, Map<String, Object>> filters = Map.of("tags toxic", Map.of("tags", List.of("toxic")),
                "tags rude, none", Map.of("tags", List.of("rude", "none")), "rating_min 0.5", Map.of("rating_min", 0.5),
                "rating_max 0.5", Map.of("rating_max", 0.5), "rating_min 0", Map.of("rating_min", 0),
                "span_agent_names a1", Map.of("span_agent_names", List.of("a1")),
                "span_agent_names empty", Map.of("span_agent_names", List.of("")));
        Map<String, Integer> counted = new java.util.LinkedHashMap<>();
        expected.keySet().forEach(name -> {
            Map<String, Object> request = new HashMap<>(window);
            request.putAll(filters.get(name));
            counted.put(name, total(request));
        });
        assertEquals(expected, counted);
    }

    @Test
    void badAggregateRequestsAreRefusedNamingTheField() {
        client.post("/feedback/aggregate", Map.of("project_id", client.project, "before_ms", 1)).statusCode(422)
                .body("detail[0].loc", contains("body", "after_ms"));
        client.post("/feedback/aggregate", aggregateBody(Map.of("after_ms", -1))).statusCode(422)
                .body("detail[0].type", equalTo("greater_than_equal"));
        client.post("/feedback/aggregate", aggregateBody(Map.of("time_bucket_seconds", 0))).statusCode(422)
                .body("detail[0].loc", contains("body", "time_bucket_seconds"));
        client.post("/feedback/aggregate", aggregateBody(Map.of("rating_max", 2))).statusCode(422)
                .body("detail[0].msg", equalTo("Input should be less than or equal to 1"));
        client.post("/feedback/aggregate", aggregateBody(Map.of("group_by", List.of("scorer_id", "model")))).statusCode(422)
                .body("detail[0].loc", contains("body", "group_by", 1))
                .body("detail[0].msg", equalTo("Input should be 'scorer_id', 'span_agent_name', 'span_agent_version' or "
                        + "'span_status_code'"));
        client.post("/feedback/aggregate", aggregateBody(Map.of("span_types", List.of("turn")))).statusCode(422)
                .body("detail[0].loc", contains("body", "span_types", 0));
    }

    private Map<String, Object> aggregate(Map<String, Object> fields) {
        return client.post("/feedback/aggregate", aggregateBody(fields)).statusCode(200).extract().as(Map.class);
    }

    private int total(Map<String, Object> fields) {
        return (Integer) buckets(aggregate(fields)).get(0).get("total_count");
    }

    private Map<String, Object> aggregateBody(Map<String, Object> fields) {
        Map<String, Object> body = new HashMap<>(Map.of("project_id", client.project, "after_ms", millis(START),
                "before_ms", millis(END)));
        body.putAll(fields);
        return body;
    }

    private static long millis(String instant) {
        return OffsetDateTime.parse(instant).toInstant().toEpochMilli();
    }

    private Map<String, Object> stats(Map<String, Object> fields) {
        return client.post("/feedback/stats", body(fields)).statusCode(200).extract().as(Map.class);
    }

    private Map<String, Object> body(Map<String, Object> fields) {
        Map<String, Object> body = new HashMap<>(Map.of("project_id", client.project, "start", START, "end", END));
        body.putAll(fields);
        return body;
    }

    private void scored(String createdAt, String scorer, String monitor, Map<String, Object> output) {
        Map<String, Object> feedback = new HashMap<>(Map.of("project_id", client.project, "weave_ref", callRef("c1"),
                "feedback_type", "wandb.runnable." + scorer, "payload", Map.of("output", output),
                "runnable_ref", "weave:///" + client.project + "/object/" + scorer + ":abc", "trigger_ref", monitor(monitor)));
        at(createdAt, client.post("/feedback/create", feedback).statusCode(200).extract().path("id"));
    }

    private void agentScored(String createdAt, String scorer, List<String> tags, Map<String, Object> ratings, String agent,
            String version, String status) {
        Map<String, Object> feedback = new HashMap<>(Map.of("project_id", client.project, "weave_ref", callRef("c2"),
                "feedback_type", "wandb.runnable." + scorer, "payload", Map.of("output", 1),
                "runnable_ref", "weave:///" + client.project + "/object/" + scorer + ":abc"));
        putIfGiven(feedback, "scorer_tags", tags);
        putIfGiven(feedback, "scorer_ratings", ratings);
        putIfGiven(feedback, "span_agent_name", agent);
        putIfGiven(feedback, "span_agent_version", version);
        putIfGiven(feedback, "span_status_code", status);
        at(createdAt, client.post("/feedback/create", feedback).statusCode(200).extract().path("id"));
    }

    private static void putIfGiven(Map<String, Object> body, String field, Object value) {
        if (value != null) {
            body.put(field, value);
        }
    }

    /** Feedback is created now; the fixture moves it to the hour the test needs. */
    private void at(String createdAt, String id) {
        pool.preparedQuery("UPDATE tracing.feedback SET created_at = $1 WHERE project_id = $2 AND id = $3")
                .execute(Tuple.of(OffsetDateTime.parse(createdAt), client.project, id)).await().indefinitely();
    }

    private String monitor(String nameAndVersion) {
        return "weave:///" + client.project + "/object/" + nameAndVersion;
    }

    private String callRef(String callId) {
        return "weave:///" + client.project + "/call/" + callId;
    }

    private static Map<String, Object> path(String jsonPath, String valueType) {
        return Map.of("json_path", jsonPath, "value_type", valueType);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> buckets(Map<String, Object> stats) {
        return (List<Map<String, Object>>) stats.get("buckets");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> without(Map<String, Object> map, String key) {
        Map<String, Object> copy = new HashMap<>(map);
        copy.remove(key);
        return copy;
    }
}
