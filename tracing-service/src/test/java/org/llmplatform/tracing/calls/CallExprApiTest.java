package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** The query language (docs/tracing-service.md#query-language) against real rows: operators, typing rules, computed fields, sorting. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallExprApiTest {

    private TraceClient client;

    /**
     * n1: a=5 (int), success in 1 s; n2: a="5" (string), error; n3: a=10, descendant_error;
     * n4: no inputs, display name "Shown", still running.
     */
    @BeforeEach
    void fourCalls() {
        client = new TraceClient("expr");
        Map<String, Object> n1 = client.start("n1", "weave:///" + client.project + "/op/scorer:abc", at(1));
        n1.put("inputs", Map.of("a", 5, "s", "hello", "f", 1.5, "b", true, "nested", Map.of("k", "v"),
                "arr", List.of(Map.of("content", "first")), "metrics.run", 7));
        n1.put("svc_run_step", 3);
        Map<String, Object> n2 = client.start("n2", "op", at(2));
        n2.put("inputs", Map.of("a", "5", "s", "Hello World", "f", 2.5, "b", false));
        Map<String, Object> n3 = client.start("n3", "op", at(3));
        n3.put("inputs", Map.of("a", 10, "s", "bye"));
        Map<String, Object> n4 = client.start("n4", "op", at(4));
        n4.put("display_name", "Shown");

        Map<String, Object> end1 = client.end("n1", at(2));
        end1.put("output", Map.of("score", 0.9));
        Map<String, Object> end2 = client.end("n2", at(5));
        end2.put("exception", "ValueError");
        Map<String, Object> end3 = client.end("n3", at(6));
        end3.put("output", Map.of("score", "high"));
        end3.put("summary", Map.of("status_counts", Map.of("success", 1, "error", 1)));
        client.write(List.of(n1, n2, n3, n4), List.of(end1, end2, end3));
    }

    @Test
    void aJsonValueEqualsAStringLiteralAsText() {
        assertEquals(List.of("n1", "n2"), where(eq(field("inputs.a"), lit("5"))));
        assertEquals(List.of("n1"), where(eq(field("inputs.s"), lit("hello"))));
        assertEquals(List.of("n1"), where(eq(field("inputs.b"), lit("true"))));
    }

    @Test
    void aNumericOrBooleanLiteralCastsTheJsonValue() {
        assertEquals(List.of("n1", "n2"), where(eq(field("inputs.a"), lit(5))));
        assertEquals(List.of("n3"), where(op("$gt", field("inputs.a"), lit(6))));
        assertEquals(List.of("n1"), where(eq(field("inputs.f"), lit(1.5))));
        assertEquals(List.of("n1"), where(op("$lt", field("inputs.f"), lit(2.0))));
        assertEquals(List.of("n1", "n2"), where(op("$lte", field("inputs.f"), lit(2.5))));
        assertEquals(List.of("n2"), where(op("$gte", field("inputs.f"), lit(2.0))));
        // An int literal casts to int, and 2.5 does not parse as one.
        assertEquals(List.of(), where(op("$gte", field("inputs.f"), lit(2))));
        assertEquals(List.of("n1"), where(eq(field("inputs.b"), lit(true))));
        assertEquals(List.of("n2"), where(eq(field("inputs.b"), lit(false))));
    }

    @Test
    void aStringLiteralComparesJsonValuesAsText() {
        assertEquals(List.of(), where(op("$gt", field("inputs.a"), lit("6"))));
        // A missing value reads as '', like ClickHouse's JSON_VALUE.
        assertEquals(List.of("n3", "n4"), where(op("$lt", field("inputs.a"), lit("5"))));
    }

    @Test
    void inTakesTheTypeOfItsLiterals() {
        assertEquals(List.of("n1", "n2", "n3"), where(Map.of("$in", List.of(field("inputs.a"), List.of(lit(5), lit(10))))));
        assertEquals(List.of("n1"), where(Map.of("$in", List.of(field("inputs.f"), List.of(lit(1.5), lit(2))))));
        assertEquals(List.of("n1", "n3"), where(Map.of("$in", List.of(field("inputs.s"), List.of(lit("hello"), lit("bye"))))));
        assertEquals(List.of("n2", "n3"), where(Map.of("$in", List.of(field("id"), List.of(lit("n2"), lit("n3"))))));
        assertEquals(List.of(), where(Map.of("$in", List.of(field("id"), List.of()))));
    }

    @Test
    void containsIsASubstringTestOptionallyIgnoringCase() {
        assertEquals(List.of("n2"), where(contains(field("inputs.s"), "world", true)));
        assertEquals(List.of(), where(contains(field("inputs.s"), "world", false)));
        assertEquals(List.of("n2"), where(contains(field("inputs.s"), "World", false)));
        assertEquals(List.of("n4"), where(contains(field("display_name"), "HOW", true)));
        assertEquals(List.of("n1"), where(contains(field("op_name"), "scorer", false)));
    }

    @Test
    void andOrAndNotCombine() {
        assertEquals(List.of("n3", "n4"), where(Map.of("$not", List.of(eq(field("inputs.a"), lit(5))))));
        assertEquals(List.of("n1"), where(Map.of("$and", List.of(eq(field("inputs.a"), lit(5)), eq(field("inputs.b"), lit(true))))));
        assertEquals(List.of("n1", "n3"), where(Map.of("$or", List.of(eq(field("id"), lit("n1")), eq(field("id"), lit("n3"))))));
        assertEquals(List.of("n1"), where(Map.of("$and", List.of(eq(field("id"), lit("n1"))))));
    }

    @Test
    void convertCastsParseOrNullAndTestsExistence() {
        assertEquals(List.of("n3"), where(op("$gt", convert(field("inputs.a"), "double"), lit(7))));
        assertEquals(List.of("n1", "n2"), where(eq(convert(field("inputs.a"), "int"), lit(5))));
        assertEquals(List.of("n1", "n2", "n3"), where(eq(convert(field("inputs.a"), "exists"), lit(true))));
        assertEquals(List.of("n1", "n3"), where(eq(convert(field("output.score"), "exists"), lit(true))));
        assertEquals(List.of("n1"), where(op("$gt", convert(field("output.score"), "double"), lit(0.5))));
        assertEquals(List.of("n1"), where(eq(convert(field("inputs.f"), "string"), lit("1.5"))));
    }

    @Test
    void aNullLiteralMeansIsNull() {
        assertEquals(List.of("n4"), where(eq(field("inputs.a"), lit(null))));
        assertEquals(List.of("n4"), where(Map.of("$not", List.of(eq(field("display_name"), lit(null))))));
        assertEquals(List.of("n4"), where(eq(field("ended_at"), lit(null))));
    }

    @Test
    void pathsIndexArraysAndHonourEscapedDots() {
        assertEquals(List.of("n1"), where(eq(field("inputs.arr.0.content"), lit("first"))));
        assertEquals(List.of("n1"), where(eq(field("inputs.metrics\\.run"), lit(7))));
        assertEquals(List.of("n1"), where(eq(field("inputs.nested.k"), lit("v"))));
        assertEquals(List.of(), where(eq(field("inputs.nested"), lit("v"))));
    }

    @Test
    void computedSummaryFieldsFilterByTheirReadTimeValues() {
        assertEquals(List.of("n2"), where(eq(field("summary.weave.status"), lit("error"))));
        assertEquals(List.of("n3"), where(eq(field("summary.weave.status"), lit("descendant_error"))));
        assertEquals(List.of("n4"), where(eq(field("summary.weave.status"), lit("running"))));
        assertEquals(List.of("n2", "n3"), where(op("$gt", field("summary.weave.latency_ms"), lit(1500))));
        assertEquals(List.of("n1"), where(eq(field("summary.weave.trace_name"), lit("scorer"))));
        assertEquals(List.of("n4"), where(eq(field("summary.weave.trace_name"), lit("Shown"))));
    }

    @Test
    void datetimeLiteralsMayBeIsoStringsDatesOrUnixSeconds() {
        assertEquals(List.of("n3", "n4"), where(op("$gt", field("started_at"), lit("2025-01-01T12:00:02Z"))));
        assertEquals(List.of("n1", "n2", "n3", "n4"), where(op("$gte", field("started_at"), lit("2025-01-01"))));
        assertEquals(List.of("n1"), where(op("$lt", field("started_at"), lit(1735732802))));
        assertEquals(List.of("n1", "n2"), where(op("$lte", field("ended_at"), lit("2025-01-01T14:00:05+02:00"))));
        client.post("/calls/stream_query", query(op("$gt", field("started_at"), lit("not a time")))).statusCode(400);
    }

    @Test
    void numericColumnsParseStringLiterals() {
        assertEquals(List.of("n1"), where(eq(field("svc_run_step"), lit("3"))));
        assertEquals(List.of("n1"), where(eq(field("wb_run_step"), lit(3))));
    }

    @Test
    void malformedQueriesAreRefusedWithTheReferenceStatuses() {
        client.post("/calls/stream_query", query(Map.of("$and", List.of()))).statusCode(400)
                .body("reason", equalTo("Empty AND operation"));
        client.post("/calls/stream_query", query(Map.of("$or", List.of()))).statusCode(400);
        client.post("/calls/stream_query", query(eq(field("nope"), lit(1)))).statusCode(422)
                .body("reason", equalTo("Field nope is not allowed"));
        client.post("/calls/stream_query", query(eq(field("storage_size_bytes"), lit(1)))).statusCode(422);
        client.post("/calls/stream_query", query(lit(true))).statusCode(422);
        client.post("/calls/stream_query", query(Map.of("$eq", List.of(lit(1))))).statusCode(422);
        client.post("/calls/stream_query", query(Map.of("$regex", List.of(lit(1), lit(2))))).statusCode(422);
        client.post("/calls/stream_query", query(op("$gt", field("inputs.a"), lit(null)))).statusCode(400);
        Map<String, Object> extra = new HashMap<>(Map.of("project_id", client.project));
        extra.put("query", Map.of("$expr", eq(field("id"), lit("n1")), "other", 1));
        client.post("/calls/stream_query", extra).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "query", "other")));
        client.post("/calls/stream_query", sort("storage_size_bytes", "asc")).statusCode(422);
    }

    @Test
    void jsonValuesSortPresentFirstThenNumbersThenText() {
        assertEquals(List.of("n1", "n2", "n3", "n4"), sorted("inputs.a", "asc"));
        assertEquals(List.of("n3", "n1", "n2", "n4"), sorted("inputs.a", "desc"));
        assertEquals(List.of("n1", "n3", "n2", "n4"), sorted("output.score", "asc"));
        // A text value has no number: it sorts after the numbers, whatever the direction.
        assertEquals(List.of("n1", "n3", "n2", "n4"), sorted("output.score", "desc"));
        assertEquals(List.of("n1", "n3", "n2", "n4"), sorted("inputs.s", "desc"));
    }

    @Test
    void computedFieldsSortByTheirValues() {
        assertEquals(List.of("n3", "n2", "n4", "n1"), sorted("summary.weave.status", "asc"));
        assertEquals(List.of("n2", "n3", "n1", "n4"), sorted("summary.weave.latency_ms", "desc"));
        // Text sorts by bytes, like ClickHouse: upper case before lower case.
        assertEquals(List.of("n4", "n2", "n3", "n1"), sorted("summary.weave.trace_name", "asc"));
        assertEquals(List.of("n1", "n2", "n3", "n4"), sorted("ended_at", "asc"));
    }

    @Test
    void aQueryCombinesWithTheFilter() {
        Map<String, Object> body = query(op("$gte", field("inputs.a"), lit(5)));
        body.put("filter", Map.of("call_ids", List.of("n2", "n3", "n4")));
        assertEquals(List.of("n2", "n3"), client.ids(body));
    }

    private List<String> where(Map<String, Object> expr) {
        return client.ids(query(expr));
    }

    private List<String> sorted(String field, String direction) {
        return client.ids(sort(field, direction));
    }

    private Map<String, Object> query(Map<String, Object> expr) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", client.project);
        body.put("query", Map.of("$expr", expr));
        return body;
    }

    private Map<String, Object> sort(String field, String direction) {
        return new HashMap<>(Map.of("project_id", client.project, "sort_by", List.of(Map.of("field", field,
                "direction", direction))));
    }

    private static Map<String, Object> field(String path) {
        return Map.of("$getField", path);
    }

    private static Map<String, Object> lit(Object value) {
        Map<String, Object> literal = new HashMap<>();
        literal.put("$literal", value);
        return literal;
    }

    private static Map<String, Object> eq(Object left, Object right) {
        return op("$eq", left, right);
    }

    private static Map<String, Object> op(String operator, Object left, Object right) {
        return Map.of(operator, List.of(left, right));
    }

    private static Map<String, Object> convert(Object input, String to) {
        return Map.of("$convert", Map.of("input", input, "to", to));
    }

    private static Map<String, Object> contains(Object input, String substring, boolean caseInsensitive) {
        return Map.of("$contains", Map.of("input", input, "substr", lit(substring), "case_insensitive", caseInsensitive));
    }

    private static String at(int second) {
        return CallQueryApiTest.at(second);
    }
}
