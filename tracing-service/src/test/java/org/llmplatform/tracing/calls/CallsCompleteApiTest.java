package org.llmplatform.tracing.calls;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.testing.PlatformTestResources;

/**
 * The v2 call writes as the Weave TypeScript SDK's main branch sends them ({@code sdks/node/src/weaveClient.ts}:
 * {@code mergeToComplete}, {@code sendCallsComplete}, {@code sendCallStartV2}/{@code sendCallEndV2},
 * {@code upgradeToCallsComplete}), read back through every read path next to the same calls written with the v1
 * start and end (docs/tracing-service.md#calls-complete-mode).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallsCompleteApiTest {

    private static final String T0 = "2025-03-01T10:00:00.000Z";

    /** The SDK's client: Basic {@code api:<key>} and its User-Agent, a project of the key's user. */
    private record SdkClient(String key, String projectId) {

        static SdkClient fresh(String prefix) {
            String user = TestIdentities.unique(prefix);
            return new SdkClient(TestIdentities.userWithKey(user), user + "/" + prefix);
        }

        SdkClient otherProject(String name) {
            return new SdkClient(key, projectId.substring(0, projectId.indexOf('/') + 1) + name);
        }

        ValidatableResponse post(String path, Object body) {
            return given().header("Authorization", "Basic " + Base64.getEncoder()
                            .encodeToString(("api:" + key).getBytes(StandardCharsets.UTF_8)))
                    .header("User-Agent", "W&B Weave JS Client 0.12.0")
                    .contentType(ContentType.JSON).body(body).post(path).then();
        }

        ValidatableResponse v2(String suffix, Object body) {
            return post("/v2/" + projectId + "/" + suffix, body);
        }

        String opRef(String name) {
            return "weave:///" + projectId + "/op/" + name + ":8f3b1c2d9e0a";
        }
    }

    /** One call as {@code createCall} and {@code finishCall} build its start and end. */
    private record SdkCall(Map<String, Object> start, Map<String, Object> end) {

        static SdkCall of(SdkClient client, String op, String id, String traceId, String parentId, int startMs, int endMs,
                Map<String, Object> inputs, Object output, Map<String, Object> summary, String exception) {
            Map<String, Object> start = new LinkedHashMap<>();
            start.put("project_id", client.projectId());
            start.put("id", id);
            start.put("op_name", client.opRef(op));
            start.put("trace_id", traceId);
            if (parentId != null) {
                start.put("parent_id", parentId);
            }
            start.put("started_at", at(startMs));
            start.put("attributes", Map.of("weave", Map.of("client_version", "0.12.0", "source", "js-sdk")));
            start.put("inputs", inputs);
            Map<String, Object> end = new LinkedHashMap<>();
            end.put("project_id", client.projectId());
            end.put("id", id);
            end.put("trace_id", traceId);
            end.put("is_eval", false);
            end.put("ended_at", at(endMs));
            end.put("output", output);
            end.put("summary", summary);
            if (exception != null) {
                end.put("exception", exception);
            }
            return new SdkCall(start, end);
        }

        /** {@code mergeToComplete}: the start and end spread together, the start's identity and time kept. */
        Map<String, Object> complete() {
            Map<String, Object> complete = new LinkedHashMap<>(start);
            complete.putAll(end);
            complete.put("id", start.get("id"));
            complete.put("trace_id", start.get("trace_id"));
            complete.put("started_at", start.get("started_at"));
            return complete;
        }
    }

    private static String at(int millis) {
        return java.time.Instant.parse(T0).plusMillis(millis).toString();
    }

    /** A trace as the SDK logs it: an eager root (v2 start now, v2 end last) and finished children (calls/complete). */
    private static List<SdkCall> trace(SdkClient client, String suffix) {
        String root = "root-" + suffix;
        String trace = "trace-" + suffix;
        Map<String, Object> usage = Map.of("usage", Map.of("gpt-4o-mini", Map.of("requests", 1, "prompt_tokens", 12,
                "completion_tokens", 5, "total_tokens", 17)));
        SdkCall turn = SdkCall.of(client, "evaluate", root, trace, null, 0, 900, Map.of("arg0", "all"),
                Map.of("score", 0.5), usage, null);
        turn.start().put("thread_id", "thread-" + suffix);
        turn.start().put("turn_id", root);
        return List.of(turn,
                SdkCall.of(client, "predict", "child-a-" + suffix, trace, root, 100, 350, Map.of("arg0", 1), 2, usage, null),
                SdkCall.of(client, "score", "child-b-" + suffix, trace, root, 400, 420, Map.of("arg0", 2), null, Map.of(),
                        "Error: no score"),
                SdkCall.of(client, "predict", "grandchild-" + suffix, trace, "child-a-" + suffix, 150, 300,
                        Map.of("text", "héllo"), List.of("a", "b"), Map.of(), null));
    }

    /** The requests the SDK sends for a trace: root start, children's completes in one batch, root end. */
    private static void logLikeTheSdk(SdkClient client, List<SdkCall> calls) {
        client.v2("call/start", Map.of("start", calls.get(0).start())).statusCode(200)
                .body("id", equalTo(calls.get(0).start().get("id")))
                .body("trace_id", equalTo(calls.get(0).start().get("trace_id")));
        client.v2("calls/complete", Map.of("batch", calls.subList(1, calls.size()).stream().map(SdkCall::complete).toList()))
                .statusCode(200).body(equalTo("{}"));
        Map<String, Object> end = new LinkedHashMap<>(calls.get(0).end());
        client.v2("call/end", Map.of("end", end)).statusCode(200).body(equalTo("{}"));
    }

    private static void logWithV1(SdkClient client, List<SdkCall> calls) {
        List<Object> batch = new ArrayList<>();
        calls.forEach(call -> batch.add(Map.of("mode", "start", "req", Map.of("start", call.start()))));
        calls.forEach(call -> batch.add(Map.of("mode", "end", "req", Map.of("end", call.end()))));
        client.post("/call/upsert_batch", Map.of("batch", batch)).statusCode(200);
    }

    /** Every read path's answer for the project, its own name written as PROJECT so two projects compare. */
    private static Map<String, String> reads(SdkClient client, List<SdkCall> calls) {
        Map<String, String> reads = new LinkedHashMap<>();
        Map<String, Object> sorted = Map.of("project_id", client.projectId(),
                "sort_by", List.of(Map.of("field", "started_at", "direction", "asc")));
        reads.put("stream_query", client.post("/calls/stream_query", sorted).statusCode(200).extract().asString());
        Map<String, Object> withCosts = new HashMap<>(sorted);
        withCosts.put("include_costs", true);
        withCosts.put("filter", Map.of("trace_roots_only", true));
        reads.put("stream_query roots with costs", client.post("/calls/stream_query", withCosts).statusCode(200)
                .extract().asString());
        for (SdkCall call : calls) {
            reads.put("read " + call.start().get("id"), client.post("/call/read", Map.of("project_id", client.projectId(),
                    "id", call.start().get("id"))).statusCode(200).extract().asString());
        }
        reads.put("query_stats", client.post("/calls/query_stats", Map.of("project_id", client.projectId()))
                .statusCode(200).extract().asString());
        reads.put("query_stats errors", client.post("/calls/query_stats", Map.of("project_id", client.projectId(),
                "query", Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "summary.weave.status"),
                        Map.of("$literal", "error")))))).statusCode(200).extract().asString());
        reads.put("threads", client.post("/threads/stream_query", Map.of("project_id", client.projectId()))
                .statusCode(200).extract().asString());
        reads.replaceAll((path, body) -> body.replace(client.projectId(), "PROJECT"));
        return reads;
    }

    @Test
    void theSdksV2WritesReadBackOnEveryPathAsTheSameCallsWrittenWithStartAndEnd() {
        SdkClient v2 = SdkClient.fresh("complete");
        SdkClient v1 = v2.otherProject("legacy");
        String suffix = UUID.randomUUID().toString();
        List<SdkCall> v2Calls = trace(v2, suffix);
        logLikeTheSdk(v2, v2Calls);
        logWithV1(v1, trace(v1, suffix));

        Map<String, String> expected = reads(v1, trace(v1, suffix));
        Map<String, String> actual = reads(v2, v2Calls);
        assertEquals(expected, actual);
        v2.post("/calls/query_stats", Map.of("project_id", v2.projectId())).body("count", equalTo(4));
        v2.post("/call/read", Map.of("project_id", v2.projectId(), "id", "child-b-" + suffix))
                .body("call.exception", equalTo("Error: no score"))
                .body("call.summary.weave.status", equalTo("error"))
                .body("call.summary.weave.latency_ms", equalTo(20))
                .body("call.parent_id", equalTo("root-" + suffix));
        v2.post("/call/read", Map.of("project_id", v2.projectId(), "id", "root-" + suffix))
                .body("call.summary.usage.gpt-4o-mini.total_tokens", equalTo(17))
                .body("call.ended_at", equalTo("2025-03-01T10:00:00.900000Z"));
    }

    /**
     * The Python SDK's shapes: {@code CallsCompleteReq(batch=[...]).model_dump(mode="json")} (every field, unset ones as
     * null, {@code wb_} names) and an eager end with {@code started_at}, each with the {@code X-Weave-Trace-Id} header.
     */
    @Test
    void thePythonSdksCompleteItemsAndEagerEndAreAccepted() {
        SdkClient client = SdkClient.fresh("python");
        String id = UUID.randomUUID().toString();
        Map<String, Object> complete = new LinkedHashMap<>();
        complete.put("project_id", client.projectId());
        complete.put("id", id);
        complete.put("trace_id", "trace-" + id);
        complete.put("op_name", client.opRef("py_op"));
        complete.put("started_at", "2025-03-01T10:00:00.123456Z");
        complete.put("ended_at", "2025-03-01T10:00:01.123456Z");
        complete.put("attributes", Map.of("weave", Map.of("source", "python-sdk")));
        complete.put("inputs", Map.of("a", 1));
        for (String unset : List.of("display_name", "parent_id", "thread_id", "turn_id", "otel_dump", "exception",
                "wb_user_id", "wb_run_step_end")) {
            complete.put(unset, null);
        }
        complete.put("output", Map.of("b", 2));
        complete.put("summary", Map.of("usage", Map.of()));
        complete.put("wb_run_id", client.projectId().split("/")[0] + "/run-1");
        complete.put("wb_run_step", 3);
        given().auth().preemptive().basic("api", client.key()).header("X-Weave-Trace-Id", "trace-" + id)
                .contentType(ContentType.JSON).body(Map.of("batch", List.of(complete)))
                .post("/v2/" + client.projectId() + "/calls/complete").then().statusCode(200);

        String eager = UUID.randomUUID().toString();
        client.v2("call/start", Map.of("start", SdkCall.of(client, "py_eager", eager, "trace-" + eager, null, 0, 0,
                Map.of(), null, Map.of(), null).start())).statusCode(200);
        client.v2("call/end", Map.of("end", Map.of("project_id", client.projectId(), "id", eager, "trace_id",
                "trace-" + eager, "started_at", at(0), "ended_at", at(2500), "output", "done", "summary", Map.of(),
                "wb_run_step_end", 4))).statusCode(200);

        client.post("/call/read", Map.of("project_id", client.projectId(), "id", id)).statusCode(200)
                .body("call.svc_run_id", equalTo(client.projectId().split("/")[0] + "/run-1"))
                .body("call.svc_run_step", equalTo(3))
                .body("call.svc_user_id", equalTo(client.projectId().split("/")[0]))
                .body("call.summary.weave.latency_ms", equalTo(1000));
        client.post("/call/read", Map.of("project_id", client.projectId(), "id", eager)).statusCode(200)
                .body("call.output", equalTo("done"))
                .body("call.svc_run_step_end", equalTo(4))
                .body("call.summary.weave.latency_ms", equalTo(2500));
    }

    @Test
    void aResentBatchOrEagerPartChangesNothing() {
        SdkClient client = SdkClient.fresh("resend");
        List<SdkCall> calls = trace(client, UUID.randomUUID().toString());
        logLikeTheSdk(client, calls);
        Map<String, String> once = reads(client, calls);
        logLikeTheSdk(client, calls);
        client.v2("calls/complete", Map.of("batch", List.of(calls.get(1).complete(), calls.get(1).complete())))
                .statusCode(200);
        assertEquals(once, reads(client, calls));
    }

    @Test
    void aBadItemIsRefusedNamingItsFieldAndWritesNothing() {
        SdkClient client = SdkClient.fresh("badinput");
        List<SdkCall> accepted = trace(client, UUID.randomUUID().toString());
        logLikeTheSdk(client, accepted);
        Map<String, String> before = reads(client, accepted);
        List<SdkCall> more = trace(client, UUID.randomUUID().toString());

        Map<String, Object> noEnd = more.get(2).complete();
        noEnd.remove("ended_at");
        client.v2("calls/complete", Map.of("batch", List.of(more.get(1).complete(), noEnd))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "batch", 1, "ended_at")))
                .body("detail[0].type", equalTo("missing"));
        Map<String, Object> noTrace = more.get(1).complete();
        noTrace.remove("trace_id");
        client.v2("calls/complete", Map.of("batch", List.of(noTrace)))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "batch", 0, "trace_id")));
        Map<String, Object> badTime = more.get(1).complete();
        badTime.put("started_at", "yesterday");
        client.v2("calls/complete", Map.of("batch", List.of(badTime)))
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "batch", 0, "started_at")));
        Map<String, Object> longId = more.get(1).complete();
        longId.put("id", "x".repeat(129));
        client.v2("calls/complete", Map.of("batch", List.of(longId))).statusCode(422)
                .body("detail[0].type", equalTo("string_too_long"))
                .body("detail[0].loc", equalTo(List.of("body", "batch", 0, "id")));
        SdkClient elsewhere = client.otherProject("elsewhere");
        Map<String, Object> otherProject = more.get(1).complete();
        otherProject.put("project_id", elsewhere.projectId());
        client.v2("calls/complete", Map.of("batch", List.of(otherProject))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "batch", 0, "project_id")));
        client.v2("calls/complete", Map.of()).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "batch")));
        client.v2("calls/complete", Map.of("batch", List.of(), "extra", 1)).statusCode(422);
        Map<String, Object> startWithoutOp = new HashMap<>(more.get(0).start());
        startWithoutOp.remove("op_name");
        client.v2("call/start", Map.of("start", startWithoutOp)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "start", "op_name")));
        Map<String, Object> endWithoutSummary = new HashMap<>(more.get(0).end());
        endWithoutSummary.remove("summary");
        client.v2("call/end", Map.of("end", endWithoutSummary)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "end", "summary")));

        assertEquals(before, reads(client, accepted));
        client.post("/calls/query_stats", Map.of("project_id", client.projectId())).body("count", equalTo(4));
        elsewhere.post("/calls/query_stats", Map.of("project_id", elsewhere.projectId())).body("count", equalTo(0));
    }

    @Test
    void aStrangersKeyIsRefusedBeforeTheBodyIsRead() {
        SdkClient owner = SdkClient.fresh("owner");
        SdkClient stranger = SdkClient.fresh("stranger");
        SdkClient intruder = new SdkClient(stranger.key(), owner.projectId());
        List<SdkCall> calls = trace(owner, UUID.randomUUID().toString());
        intruder.v2("calls/complete", Map.of("batch", List.of(Map.of("id", "x".repeat(500))))).statusCode(403);
        intruder.v2("calls/complete", Map.of("batch", List.of(calls.get(1).complete()))).statusCode(403);
        intruder.v2("call/start", Map.of("start", calls.get(0).start())).statusCode(403);
        intruder.v2("call/end", "{not json").statusCode(403);
        // The stranger's own path, naming the owner's project in the body.
        stranger.v2("calls/complete", Map.of("batch", List.of(calls.get(1).complete()))).statusCode(403);
        owner.post("/calls/query_stats", Map.of("project_id", owner.projectId())).body("count", equalTo(0));
    }

    @Test
    void aProjectStartedWithCallsCompleteRefusesV1WritesWithTheCodeThatSwitchesTheSdk() {
        SdkClient client = SdkClient.fresh("mode");
        List<SdkCall> first = trace(client, UUID.randomUUID().toString());
        client.v2("calls/complete", Map.of("batch", List.of(first.get(1).complete()))).statusCode(200);
        List<SdkCall> later = trace(client, UUID.randomUUID().toString());

        client.post("/call/upsert_batch", Map.of("batch", List.of(Map.of("mode", "start", "req",
                        Map.of("start", later.get(1).start()))))).statusCode(400)
                .body("error_code", equalTo("CALLS_COMPLETE_MODE_REQUIRED"))
                .body("reason", startsWith("The project '" + client.projectId() + "' has been created in the more"
                        + " performant 'complete' mode."));
        client.post("/call/start", Map.of("start", later.get(1).start())).statusCode(400)
                .body("error_code", equalTo("CALLS_COMPLETE_MODE_REQUIRED"));
        client.post("/call/end", Map.of("end", later.get(1).end())).statusCode(400)
                .body("error_code", equalTo("CALLS_COMPLETE_MODE_REQUIRED"));
        // Validation comes first, as the reference's request models do.
        client.post("/call/start", Map.of("start", Map.of("project_id", client.projectId()))).statusCode(422);
        client.post("/call/read", Map.of("project_id", client.projectId(), "id", later.get(1).start().get("id")))
                .body("call", nullValue());
        // Renames and deletes are not writes of parts: the reference routes them to either table.
        client.post("/call/update", Map.of("project_id", client.projectId(), "call_id", first.get(1).start().get("id"),
                "display_name", "renamed")).statusCode(200);
    }

    @Test
    void aProjectWithV1CallsTakesBothApis() {
        SdkClient client = SdkClient.fresh("legacyfirst");
        List<SdkCall> first = trace(client, UUID.randomUUID().toString());
        logWithV1(client, first.subList(0, 1));
        List<SdkCall> later = trace(client, UUID.randomUUID().toString());
        logLikeTheSdk(client, later);
        logWithV1(client, trace(client, UUID.randomUUID().toString()));
        client.post("/calls/query_stats", Map.of("project_id", client.projectId())).body("count", equalTo(9));
    }

    /**
     * A client built like the SDK with {@code useCallsComplete: false}: it sends {@code call/upsert_batch}; on the
     * 400 with {@code CALLS_COMPLETE_MODE_REQUIRED} it pairs the refused starts and ends into completes
     * ({@code upgradeToCallsComplete}) and sends them to {@code calls/complete}. Nothing is lost.
     */
    @Test
    void theSdksFallbackAfterTheRefusalDeliversEveryCall() {
        SdkClient client = SdkClient.fresh("fallback");
        List<SdkCall> seed = trace(client, UUID.randomUUID().toString());
        client.v2("calls/complete", Map.of("batch", List.of(seed.get(1).complete()))).statusCode(200);

        List<SdkCall> calls = trace(client, UUID.randomUUID().toString());
        List<Object> legacy = new ArrayList<>();
        calls.forEach(call -> legacy.add(Map.of("mode", "start", "req", Map.of("start", call.start()))));
        calls.forEach(call -> legacy.add(Map.of("mode", "end", "req", Map.of("end", call.end()))));
        ValidatableResponse refused = client.post("/call/upsert_batch", Map.of("batch", legacy)).statusCode(400);
        assertEquals("CALLS_COMPLETE_MODE_REQUIRED", refused.extract().path("error_code"));
        client.v2("calls/complete", Map.of("batch", calls.stream().map(SdkCall::complete).toList())).statusCode(200);

        assertEquals(calls.stream().map(call -> call.start().get("id")).sorted().toList(),
                client.post("/calls/stream_query", Map.of("project_id", client.projectId(),
                                "filter", Map.of("trace_ids", List.of(calls.get(0).start().get("trace_id")))))
                        .statusCode(200).extract().asString().lines()
                        .map(line -> io.restassured.path.json.JsonPath.from(line).getString("id")).sorted().toList());
    }
}
