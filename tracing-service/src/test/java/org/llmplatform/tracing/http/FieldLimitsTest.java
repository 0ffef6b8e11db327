package org.llmplatform.tracing.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Every id, name, digest and ref the trace API takes has a length limit checked before any query: one character
 * over is a 422 naming the field, the limit itself is not refused for its length (docs/tracing-service.md#limits).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FieldLimitsTest {

    /** {@code body} holds {@code $P} for the caller's project and {@code $V} for the value under test. */
    record Limit(String endpoint, String body, List<Object> loc, int max, String prefix) {

        Limit(String endpoint, String body, List<Object> loc, int max) {
            this(endpoint, body, loc, max, "");
        }

        String bodyWith(String project, int length) {
            String start = prefix.replace("$P", project);
            String value = start + "a".repeat(length - start.length());
            return body.replace("$P", project).replace("$V", value);
        }

        @Override
        public String toString() {
            return endpoint + " " + loc;
        }
    }

    private static final String START = "\"project_id\": \"$P\", \"id\": \"c1\", \"trace_id\": \"t1\", \"op_name\": \"op\","
            + " \"started_at\": \"2024-01-01T00:00:00Z\", \"attributes\": {}, \"inputs\": {}";

    static Stream<Limit> limits() {
        int id = FieldLimits.ID;
        int name = FieldLimits.NAME;
        int digest = FieldLimits.DIGEST;
        int ref = FieldLimits.REF;
        return Stream.of(
                new Limit("/calls/delete", "{\"project_id\": \"$P\", \"call_ids\": [\"$V\"]}", List.of("body", "call_ids", 0), id),
                new Limit("/call/read", "{\"project_id\": \"$P\", \"id\": \"$V\"}", List.of("body", "id"), id),
                new Limit("/call/update", "{\"project_id\": \"$P\", \"call_id\": \"$V\", \"display_name\": \"x\"}",
                        List.of("body", "call_id"), id),
                new Limit("/call/update", "{\"project_id\": \"$P\", \"call_id\": \"c1\", \"display_name\": \"$V\"}",
                        List.of("body", "display_name"), FieldLimits.DISPLAY_NAME),
                new Limit("/call/start", "{\"start\": {" + START.replace("\"id\": \"c1\"", "\"id\": \"$V\"") + "}}",
                        List.of("body", "start", "id"), id),
                new Limit("/call/start", "{\"start\": {" + START.replace("\"op_name\": \"op\"", "\"op_name\": \"$V\"") + "}}",
                        List.of("body", "start", "op_name"), name),
                new Limit("/call/start", "{\"start\": {" + START.replace("\"op_name\": \"op\"", "\"op_name\": \"$V\"") + "}}",
                        List.of("body", "start", "op_name"), ref, "weave:///$P/op/o:"),
                new Limit("/call/start", "{\"start\": {" + START.replace("\"t1\"", "\"$V\"") + "}}",
                        List.of("body", "start", "trace_id"), id),
                new Limit("/call/end", "{\"end\": {\"project_id\": \"$P\", \"id\": \"$V\", \"ended_at\": \"2024-01-01T00:00:01Z\","
                        + " \"summary\": {}}}", List.of("body", "end", "id"), id),
                new Limit("/call/upsert_batch", "{\"batch\": [{\"mode\": \"start\", \"req\": {\"start\": {"
                        + START.replace("\"id\": \"c1\"", "\"id\": \"c1\", \"parent_id\": \"$V\"") + "}}}]}",
                        List.of("body", "batch", 0, "req", "start", "parent_id"), id),
                new Limit("/calls/stream_query", "{\"project_id\": \"$P\", \"filter\": {\"trace_ids\": [\"$V\"]}}",
                        List.of("body", "filter", "trace_ids", 0), id),
                new Limit("/calls/query_stats", "{\"project_id\": \"$P\", \"filter\": {\"call_ids\": [\"t\", \"$V\"]}}",
                        List.of("body", "filter", "call_ids", 1), id),
                new Limit("/calls/query_stats", "{\"project_id\": \"$P\", \"filter\": {\"op_names\": [\"$V\"]}}",
                        List.of("body", "filter", "op_names", 0), ref),
                new Limit("/obj/read", "{\"project_id\": \"$P\", \"object_id\": \"o\", \"digest\": \"$V\"}",
                        List.of("body", "digest"), digest),
                new Limit("/obj/delete", "{\"project_id\": \"$P\", \"object_id\": \"o\", \"digests\": [\"$V\"]}",
                        List.of("body", "digests", 0), digest),
                new Limit("/objs/query", "{\"project_id\": \"$P\", \"filter\": {\"object_ids\": [\"$V\"]}}",
                        List.of("body", "filter", "object_ids", 0), name),
                new Limit("/table/query", "{\"project_id\": \"$P\", \"digest\": \"$V\"}", List.of("body", "digest"), digest),
                new Limit("/table/query_stats_batch", "{\"project_id\": \"$P\", \"digests\": [\"$V\"]}",
                        List.of("body", "digests", 0), digest),
                new Limit("/table/update", "{\"project_id\": \"$P\", \"base_digest\": \"$V\", \"updates\": []}",
                        List.of("body", "base_digest"), digest),
                new Limit("/feedback/replace", "{\"project_id\": \"$P\", \"feedback_id\": \"$V\", \"weave_ref\": \"r\","
                        + " \"feedback_type\": \"note\", \"payload\": {\"note\": \"n\"}}", List.of("body", "feedback_id"), id),
                new Limit("/feedback/create", "{\"project_id\": \"$P\", \"weave_ref\": \"$V\", \"feedback_type\": \"note\","
                        + " \"payload\": {\"note\": \"n\"}}", List.of("body", "weave_ref"), ref, "weave:///$P/call/"),
                new Limit("/feedback/create", "{\"project_id\": \"$P\", \"weave_ref\": \"r\", \"feedback_type\": \"note\","
                        + " \"payload\": {\"note\": \"n\"}, \"span_trace_id\": \"$V\"}", List.of("body", "span_trace_id"), id),
                new Limit("/feedback/create", "{\"project_id\": \"$P\", \"weave_ref\": \"r\", \"feedback_type\": \"note\","
                        + " \"payload\": {\"note\": \"n\"}, \"span_agent_name\": \"$V\"}", List.of("body", "span_agent_name"), name),
                new Limit("/feedback/batch/create", "{\"batch\": [{\"project_id\": \"$P\", \"weave_ref\": \"r\","
                        + " \"feedback_type\": \"note\", \"payload\": {\"note\": \"n\"}, \"scorer_trace_id\": \"$V\"}]}",
                        List.of("body", "batch", 0, "scorer_trace_id"), id),
                new Limit("/refs/read_batch", "{\"refs\": [\"$V\"]}", List.of("body", "refs", 0), ref, "weave:///$P/object/o:"),
                new Limit("/threads/stream_query", "{\"project_id\": \"$P\", \"filter\": {\"thread_ids\": [\"$V\"]}}",
                        List.of("body", "filter", "thread_ids", 0), id),
                new Limit("/file/content", "{\"project_id\": \"$P\", \"digest\": \"$V\"}", List.of("body", "digest"), digest),
                new Limit("/feedback/stats", "{\"project_id\": \"$P\", \"start\": \"2025-01-01T00:00:00Z\", \"trigger_ref\": \"$V\"}",
                        List.of("body", "trigger_ref"), ref, "weave:///$P/object/monitor:"),
                new Limit("/feedback/payload_schema", "{\"project_id\": \"$P\", \"start\": \"2025-01-01T00:00:00Z\","
                        + " \"trigger_ref\": \"$V\"}", List.of("body", "trigger_ref"), ref, "weave:///$P/object/monitor:"),
                new Limit("/feedback/aggregate", "{\"project_id\": \"$P\", \"after_ms\": 0, \"before_ms\": 1,"
                        + " \"monitor_ids\": [\"$V\"]}", List.of("body", "monitor_ids", 0), name),
                new Limit("/feedback/aggregate", "{\"project_id\": \"$P\", \"after_ms\": 0, \"before_ms\": 1,"
                        + " \"scorer_ids\": [\"s\", \"$V\"]}", List.of("body", "scorer_ids", 1), name),
                new Limit("/table/create_from_digests", "{\"project_id\": \"$P\", \"row_digests\": [\"$V\"]}",
                        List.of("body", "row_digests", 0), digest),
                new Limit("/table/create_from_digests", "{\"project_id\": \"$P\", \"row_digests\": [],"
                        + " \"expected_digest\": \"$V\"}", List.of("body", "expected_digest"), digest));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limits")
    void oneCharacterOverTheLimitIsRefusedNamingTheField(Limit limit) {
        TraceClient client = new TraceClient("limits");
        String body = limit.bodyWith(client.project, limit.max() + 1);
        post(client, limit.endpoint(), body).then().statusCode(422)
                .body("detail[0].type", equalTo("string_too_long"))
                .body("detail[0].loc", contains(limit.loc().toArray()))
                .body("detail[0].msg", equalTo("String should have at most " + limit.max() + " characters"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limits")
    void aValueAtTheLimitIsNotRefusedForItsLength(Limit limit) {
        TraceClient client = new TraceClient("limits");
        String body = limit.bodyWith(client.project, limit.max());
        Response answer = post(client, limit.endpoint(), body);
        assertFalse(answer.statusCode() >= 500, limit + " answered " + answer.statusCode() + ": " + answer.asString());
        assertFalse(answer.asString().contains("string_too_long"), limit + " refused its limit: " + answer.asString());
    }

    @Test
    void aFiveMegabyteCallIdToDeleteIsA422NamingItNotAServerError() {
        TraceClient client = new TraceClient("limits");
        String body = "{\"project_id\": \"" + client.project + "\", \"call_ids\": [\"" + "x".repeat(5_000_000) + "\"]}";
        post(client, "/calls/delete", body).then().statusCode(422)
                .body("detail[0].loc", contains("body", "call_ids", 0))
                .body("detail[0].input", equalTo(null));
    }

    @Test
    void aTooLongValueOfAnotherEntitysProjectIsRefusedForAccessFirst() {
        TraceClient owner = new TraceClient("limits-owner");
        TraceClient stranger = new TraceClient("limits-stranger");
        String body = "{\"project_id\": \"" + owner.project + "\", \"call_ids\": [\"" + "x".repeat(10_000) + "\"]}";
        post(stranger, "/calls/delete", body).then().statusCode(403);
    }

    @Test
    void aFiveMegabyteProjectIdIsRefusedWithoutEchoingIt() {
        TraceClient client = new TraceClient("limits");
        String body = "{\"project_id\": \"" + "p".repeat(5_000_000) + "\", \"call_ids\": [\"c\"]}";
        Response answer = post(client, "/calls/delete", body);
        answer.then().statusCode(400);
        assertFalse(answer.asString().length() > 1_000, "the answer echoes the id: " + answer.asString().length() + " chars");
    }

    private static Response post(TraceClient client, String endpoint, String body) {
        return given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON).body(body).post(endpoint);
    }
}
