package org.llmplatform.tracing.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Every id, name, digest and ref the trace API takes has a length limit checked before any query: one character
 * over is a 422 naming the field, the limit itself is not refused for its length (docs/tracing-service.md#limits):
 * the v1 routes, then the v2 write and evaluation routes, tags and aliases, annotation queues and batched feedback.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FieldLimitsTest {

    /**
     * {@code endpoint} ({@code "METHOD /path"}, POST when no method is named) and {@code body} (null: none) hold
     * {@code $P} for the caller's project and {@code $V} for the value under test.
     */
    record Limit(String endpoint, String body, List<Object> loc, int max, String prefix) {

        Limit(String endpoint, String body, List<Object> loc, int max) {
            this(endpoint, body, loc, max, "");
        }

        String value(String project, int length) {
            String start = prefix.replace("$P", project);
            return start + "a".repeat(length - start.length());
        }

        String bodyWith(String project, int length) {
            return body == null ? null : body.replace("$P", project).replace("$V", value(project, length));
        }

        String method() {
            return endpoint.contains(" ") ? endpoint.substring(0, endpoint.indexOf(' ')) : "POST";
        }

        String pathWith(String project, int length) {
            String path = endpoint.contains(" ") ? endpoint.substring(endpoint.indexOf(' ') + 1) : endpoint;
            return path.replace("$P", project).replace("$V", value(project, length));
        }

        @Override
        public String toString() {
            return endpoint + " " + loc;
        }
    }

    private static final String COMPLETE = "{\"batch\": [{\"project_id\": \"$P\", \"id\": \"c1\", \"trace_id\": \"t1\","
            + " \"op_name\": \"op\", \"started_at\": \"2024-01-01T00:00:00Z\", \"ended_at\": \"2024-01-01T00:00:01Z\","
            + " \"attributes\": {}, \"inputs\": {}, \"summary\": {}}]}";
    private static final String FEEDBACK = "{\"batch\": [{\"project_id\": \"$P\", \"weave_ref\": \"weave:///$P/call/c\","
            + " \"feedback_type\": \"note\", \"payload\": {\"note\": \"n\"}}]}";
    private static final String RUN = "{\"evaluation\": \"weave:///$P/object/e:1\", \"model\": \"weave:///$P/object/m:1\"}";
    private static final String PREDICTION = "{\"model\": \"weave:///$P/object/m:1\", \"inputs\": {}, \"output\": 1}";
    private static final String SCORE = "{\"prediction_id\": \"p\", \"scorer\": \"weave:///$P/object/s:1\", \"value\": 1}";
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

    /** The v2 write and evaluation routes, labels, annotation queues and batched feedback. */
    static Stream<Limit> v2Limits() {
        int id = FieldLimits.ID;
        int name = FieldLimits.NAME;
        int digest = FieldLimits.DIGEST;
        int ref = FieldLimits.REF;
        Stream<Limit> calls = Stream.of(
                batchLimit("/v2/$P/calls/complete", COMPLETE, "id", "\"c1\"", id),
                batchLimit("/v2/$P/calls/complete", COMPLETE, "trace_id", "\"t1\"", id),
                batchLimit("/v2/$P/calls/complete", COMPLETE, "parent_id", null, id),
                batchLimit("/v2/$P/calls/complete", COMPLETE, "thread_id", null, id),
                batchLimit("/v2/$P/calls/complete", COMPLETE, "turn_id", null, id),
                batchLimit("/v2/$P/calls/complete", COMPLETE, "display_name", null, FieldLimits.DISPLAY_NAME),
                new Limit("/v2/$P/calls/complete", COMPLETE.replace("\"op\"", "\"$V\""), List.of("body", "batch", 0, "op_name"),
                        ref, "weave:///$P/op/o:"),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START.replace("\"id\": \"c1\"", "\"id\": \"$V\"") + "}}",
                        List.of("body", "start", "id"), id),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START.replace("\"t1\"", "\"$V\"") + "}}",
                        List.of("body", "start", "trace_id"), id),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START + ", \"parent_id\": \"$V\"}}",
                        List.of("body", "start", "parent_id"), id),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START + ", \"thread_id\": \"$V\"}}",
                        List.of("body", "start", "thread_id"), id),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START + ", \"turn_id\": \"$V\"}}",
                        List.of("body", "start", "turn_id"), id),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START + ", \"display_name\": \"$V\"}}",
                        List.of("body", "start", "display_name"), FieldLimits.DISPLAY_NAME),
                new Limit("/v2/$P/call/start", "{\"start\": {" + START.replace("\"op_name\": \"op\"", "\"op_name\": \"$V\"") + "}}",
                        List.of("body", "start", "op_name"), ref, "weave:///$P/op/o:"),
                new Limit("/v2/$P/call/end", "{\"end\": {\"project_id\": \"$P\", \"id\": \"$V\", \"ended_at\": \"2024-01-01T00:00:01Z\","
                        + " \"summary\": {}}}", List.of("body", "end", "id"), id),
                new Limit("/v2/$P/call/end", "{\"end\": {\"project_id\": \"$P\", \"id\": \"c1\", \"trace_id\": \"$V\","
                        + " \"ended_at\": \"2024-01-01T00:00:01Z\", \"summary\": {}}}", List.of("body", "end", "trace_id"), id));
        Stream<Limit> evals = Stream.of(
                new Limit("/v2/$P/ops", "{\"name\": \"$V\"}", List.of("body", "name"), name),
                new Limit("/v2/$P/datasets", "{\"name\": \"$V\", \"rows\": []}", List.of("body", "name"), name),
                new Limit("/v2/$P/scorers", "{\"name\": \"$V\", \"op_source_code\": \"x\"}", List.of("body", "name"), name),
                new Limit("/v2/$P/models", "{\"name\": \"$V\", \"source_code\": \"x\"}", List.of("body", "name"), name),
                new Limit("/v2/$P/evaluations", "{\"name\": \"$V\", \"dataset\": \"weave:///$P/object/d:1\", \"scorers\": []}",
                        List.of("body", "name"), name),
                new Limit("/v2/$P/evaluations", "{\"name\": \"e\", \"dataset\": \"$V\", \"scorers\": []}",
                        List.of("body", "dataset"), ref, "weave:///$P/object/d:"),
                new Limit("/v2/$P/evaluations", "{\"name\": \"e\", \"dataset\": \"weave:///$P/object/d:1\", \"scorers\": [\"$V\"]}",
                        List.of("body", "scorers", 0), ref, "weave:///$P/object/s:"),
                new Limit("GET /v2/$P/ops/$V/versions/d", null, List.of("path", "object_id"), name),
                new Limit("GET /v2/$P/models/m/versions/$V", null, List.of("path", "digest"), digest),
                new Limit("DELETE /v2/$P/datasets/d?digests=$V", null, List.of("query", "digests", 0), digest),
                new Limit("/v2/$P/evaluation_runs", RUN.replace("weave:///$P/object/e:1", "$V"), List.of("body", "evaluation"),
                        ref, "weave:///$P/object/e:"),
                new Limit("/v2/$P/evaluation_runs", RUN.replace("weave:///$P/object/m:1", "$V"), List.of("body", "model"),
                        ref, "weave:///$P/object/m:"),
                new Limit("/v2/$P/evaluation_runs", RUN.replace("}", ", \"source_evaluation_run_id\": \"$V\"}"),
                        List.of("body", "source_evaluation_run_id"), id),
                new Limit("GET /v2/$P/evaluation_runs/$V", null, List.of("path", "evaluation_run_id"), id),
                new Limit("GET /v2/$P/evaluation_runs?evaluation_run_ids=$V", null, List.of("query", "evaluation_run_ids", 0), id),
                new Limit("GET /v2/$P/evaluation_runs?models=$V", null, List.of("query", "models", 0), ref),
                new Limit("/v2/$P/predictions", PREDICTION.replace("weave:///$P/object/m:1", "$V"), List.of("body", "model"),
                        ref, "weave:///$P/object/m:"),
                new Limit("/v2/$P/predictions", PREDICTION.replace("\"output\": 1", "\"output\": 1, \"evaluation_run_id\": \"$V\""),
                        List.of("body", "evaluation_run_id"), id),
                new Limit("/v2/$P/predictions", PREDICTION.replace("\"output\": 1", "\"output\": 1, \"genai_span_ref\": [{\"trace_id\":"
                        + " \"$V\", \"span_id\": \"s\"}]"), List.of("body", "genai_span_ref", 0, "trace_id"), id),
                new Limit("/v2/$P/predictions", PREDICTION.replace("\"output\": 1", "\"output\": 1, \"genai_span_ref\": [{\"trace_id\":"
                        + " \"t\", \"span_id\": \"$V\"}]"), List.of("body", "genai_span_ref", 0, "span_id"), id),
                new Limit("GET /v2/$P/predictions/$V", null, List.of("path", "prediction_id"), id),
                new Limit("GET /v2/$P/predictions?evaluation_run_id=$V", null, List.of("query", "evaluation_run_id"), id),
                new Limit("DELETE /v2/$P/predictions?prediction_ids=$V", null, List.of("query", "prediction_ids", 0), id),
                new Limit("/v2/$P/scores", SCORE.replace("\"p\"", "\"$V\""), List.of("body", "prediction_id"), id),
                new Limit("/v2/$P/scores", SCORE.replace("weave:///$P/object/s:1", "$V"), List.of("body", "scorer"), ref,
                        "weave:///$P/object/s:"),
                new Limit("/v2/$P/scores", SCORE.replace("}", ", \"evaluation_run_id\": \"$V\"}"),
                        List.of("body", "evaluation_run_id"), id),
                new Limit("GET /v2/$P/scores/$V", null, List.of("path", "score_id"), id),
                new Limit("/v2/$P/eval_results/query", "{\"evaluation_call_ids\": [\"$V\"]}",
                        List.of("body", "evaluation_call_ids", 0), id),
                new Limit("/v2/$P/eval_results/query", "{\"evaluation_run_ids\": [\"e\", \"$V\"]}",
                        List.of("body", "evaluation_run_ids", 1), id),
                new Limit("/v2/$P/eval_results/query", "{\"evaluation_call_ids\": [\"e\"], \"sort_by\": [{\"field\": \"row_digest\","
                        + " \"direction\": \"asc\", \"evaluation_call_id\": \"$V\"}]}",
                        List.of("body", "sort_by", 0, "evaluation_call_id"), id),
                new Limit("/v2/$P/eval_results/query", "{\"evaluation_call_ids\": [\"e\"], \"filters\": [{\"evaluation_call_id\":"
                        + " \"$V\", \"query\": {\"$expr\": {\"$eq\": [{\"$getField\": \"row_digest\"}, {\"$literal\": \"x\"}]}}}]}",
                        List.of("body", "filters", 0, "evaluation_call_id"), id));
        Stream<Limit> labelsQueuesFeedback = Stream.of(
                new Limit("PUT /objs/$V/versions/d/tags", "{\"project_id\": \"$P\", \"tags\": [\"t\"]}",
                        List.of("path", "object_id"), name),
                new Limit("PUT /objs/o/versions/$V/tags", "{\"project_id\": \"$P\", \"tags\": [\"t\"]}",
                        List.of("path", "digest"), digest),
                new Limit("/objs/o/versions/$V/tags/remove", "{\"project_id\": \"$P\", \"tags\": [\"t\"]}",
                        List.of("path", "digest"), digest),
                new Limit("PUT /objs/o/aliases", "{\"project_id\": \"$P\", \"digest\": \"$V\", \"aliases\": [\"a\"]}",
                        List.of("body", "digest"), digest),
                new Limit("PUT /objs/$V/aliases", "{\"project_id\": \"$P\", \"digest\": \"d\", \"aliases\": [\"a\"]}",
                        List.of("path", "object_id"), name),
                new Limit("/objs/$V/aliases/remove", "{\"project_id\": \"$P\", \"aliases\": [\"a\"]}",
                        List.of("path", "object_id"), name),
                new Limit("/annotation_queues", "{\"project_id\": \"$P\", \"name\": \"q\", \"scorer_refs\": [\"$V\"]}",
                        List.of("body", "scorer_refs", 0), ref, "weave:///$P/object/s:"),
                new Limit("GET /annotation_queues/$V?project_id=$P", null, List.of("path", "queue_id"), id),
                new Limit("/annotation_queues/q/items", "{\"project_id\": \"$P\", \"call_ids\": [\"$V\"]}",
                        List.of("body", "call_ids", 0), id),
                new Limit("/annotation_queues/$V/items", "{\"project_id\": \"$P\", \"call_ids\": [\"c\"]}",
                        List.of("path", "queue_id"), id),
                queueItems("id", id), queueItems("call_id", id), queueItems("call_op_name", ref), queueItems("call_trace_id", id),
                queueItems("added_by", name),
                new Limit("/annotation_queues/stats", "{\"project_id\": \"$P\", \"queue_ids\": [\"$V\"]}",
                        List.of("body", "queue_ids", 0), id),
                new Limit("/annotation_queues/q/items/$V/progress", "{\"project_id\": \"$P\", \"annotation_state\": \"completed\"}",
                        List.of("path", "item_id"), id),
                batchLimit("/feedback/batch/create", FEEDBACK, "id", null, id),
                new Limit("/feedback/batch/create", FEEDBACK.replace("weave:///$P/call/c", "$V"), List.of("body", "batch", 0, "weave_ref"),
                        ref, "weave:///$P/call/"),
                batchLimit("/feedback/batch/create", FEEDBACK, "annotation_ref", null, ref),
                batchLimit("/feedback/batch/create", FEEDBACK, "runnable_ref", null, ref),
                batchLimit("/feedback/batch/create", FEEDBACK, "call_ref", null, ref),
                batchLimit("/feedback/batch/create", FEEDBACK, "trigger_ref", null, ref),
                batchLimit("/feedback/batch/create", FEEDBACK, "queue_id", null, id));
        return Stream.of(calls, evals, labelsQueuesFeedback).flatMap(limits -> limits);
    }

    /** A field of the first item of {@code batch}: its value in {@code body} replaced, or the field added. */
    private static Limit batchLimit(String endpoint, String body, String field, String current, int max) {
        String withValue = current == null
                ? body.replaceFirst("\\{\"project_id\"", "{\"" + field + "\": \"\\$V\", \"project_id\"")
                : body.replaceFirst("\"" + field + "\": " + Pattern.quote(current), "\"" + field + "\": \"\\$V\"");
        return new Limit(endpoint, withValue, List.of("body", "batch", 0, field), max);
    }

    private static Limit queueItems(String field, int max) {
        return new Limit("/annotation_queues/q/items/query", "{\"project_id\": \"$P\", \"filter\": {\"" + field + "\": \"$V\"}}",
                List.of("body", "filter", field), max);
    }

    static Stream<Limit> allLimits() {
        return Stream.concat(limits(), v2Limits());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allLimits")
    void oneCharacterOverTheLimitIsRefusedNamingTheField(Limit limit) {
        TraceClient client = new TraceClient("limits");
        send(client, limit, limit.max() + 1).then().statusCode(422)
                .body("detail[0].type", equalTo("string_too_long"))
                .body("detail[0].loc", contains(limit.loc().toArray()))
                .body("detail[0].msg", equalTo("String should have at most " + limit.max() + " characters"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allLimits")
    void aValueAtTheLimitIsNotRefusedForItsLength(Limit limit) {
        TraceClient client = new TraceClient("limits");
        Response answer = send(client, limit, limit.max());
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

    private static Response send(TraceClient client, Limit limit, int length) {
        RequestSpecification request = given().header("Authorization", "Bearer " + client.key).urlEncodingEnabled(false);
        String body = limit.bodyWith(client.project, length);
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        return request.request(limit.method(), limit.pathWith(client.project, length));
    }

    private static Response post(TraceClient client, String endpoint, String body) {
        return given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON).body(body).post(endpoint);
    }
}
