package org.llmplatform.tracing.feedback;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
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
import org.llmplatform.tracing.calls.CallQueryApiTest;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class FeedbackApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("feedback");
    }

    @Test
    void aReactionIsStoredWithItsAliasesAndTheCallerAsOwner() {
        client.post("/feedback/create", feedback("c1", "wandb.reaction.1", Map.of("emoji", "🎱"))).statusCode(200)
                .body("id", matchesPattern("[0-9a-f-]{36}"))
                .body("created_at", matchesPattern("\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z"))
                .body("svc_user_id", equalTo(client.user))
                .body("payload", equalTo(Map.of("emoji", "🎱", "alias", ":pool_8_ball:", "detoned", "🎱",
                        "detoned_alias", ":pool_8_ball:")));
        client.post("/feedback/create", feedback("c1", "wandb.reaction.1", Map.of("emoji", "👍🏻"))).statusCode(200)
                .body("payload.detoned", equalTo("👍"))
                .body("payload.detoned_alias", equalTo(":thumbs_up:"));
    }

    @Test
    void aReactionMustBeExactlyOneEmoji() {
        for (Object emoji : List.of("👍👍", "ok", "", 5)) {
            client.post("/feedback/create", feedback("c1", "wandb.reaction.1", Map.of("emoji", emoji))).statusCode(400)
                    .body("reason", equalTo("Value of emoji key in payload must be exactly one emoji"));
        }
    }

    @Test
    void aNoteHasOneToATousandAndTwentyFourCharacters() {
        client.post("/feedback/create", feedback("c1", "wandb.note.1", Map.of("note", "x".repeat(1024)))).statusCode(200);
        client.post("/feedback/create", feedback("c1", "wandb.note.1", Map.of("note", "x".repeat(1025)))).statusCode(400);
        client.post("/feedback/create", feedback("c1", "wandb.note.1", Map.of("note", ""))).statusCode(400);
    }

    @Test
    void runnableAndAnnotationRefsFollowTheirTypes() {
        String scorer = "weave:///" + client.project + "/op/my_scorer:abc";
        Map<String, Object> runnable = feedback("c1", "wandb.runnable.my_scorer", Map.of("output", Map.of("score", 1)));
        runnable.put("runnable_ref", scorer);
        client.post("/feedback/create", runnable).statusCode(400).body("reason", matchesPattern("call_ref is required.*"));
        runnable.put("call_ref", "weave:///" + client.project + "/call/scorer-call");
        client.post("/feedback/create", runnable).statusCode(200);
        runnable.put("runnable_ref", "weave:///" + client.project + "/op/other:abc");
        client.post("/feedback/create", runnable).statusCode(400);

        Map<String, Object> custom = feedback("c1", "custom", Map.of("anything", true));
        custom.put("runnable_ref", scorer);
        client.post("/feedback/create", custom).statusCode(400)
                .body("reason", equalTo("runnable_ref is not allowed for non-runnable feedback"));
        custom.remove("runnable_ref");
        custom.put("annotation_ref", "weave:///" + client.project + "/object/spec:abc");
        client.post("/feedback/create", custom).statusCode(400);

        Map<String, Object> annotation = feedback("c1", "wandb.annotation.spec", Map.of("value", 3));
        client.post("/feedback/create", annotation).statusCode(400);
    }

    @Test
    void aPayloadOverOneMebibyteIsTooLarge() {
        client.post("/feedback/create", feedback("c1", "custom", Map.of("text", "x".repeat(1_048_560)))).statusCode(200);
        client.post("/feedback/create", feedback("c1", "custom", Map.of("text", "x".repeat(1_048_576)))).statusCode(400)
                .body("reason", equalTo("Feedback payload too large"));
    }

    @Test
    void queriesReturnTheRequestedFieldsFilteredSortedAndCounted() {
        client.post("/feedback/create", withId("f1", feedback("c1", "custom", Map.of("score", 2)))).statusCode(200);
        client.post("/feedback/create", withId("f2", feedback("c1", "custom", Map.of("score", 10)))).statusCode(200);
        client.post("/feedback/create", withId("f3", feedback("c2", "wandb.note.1", Map.of("note", "hi")))).statusCode(200);

        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("id", "payload.score"),
                "query", Map.of("$expr", Map.of("$gt", List.of(Map.of("$getField", "payload.score"), Map.of("$literal", 1)))),
                "sort_by", List.of(Map.of("field", "payload.score", "direction", "desc"))))
                .statusCode(200)
                .body("result", equalTo(List.of(Map.of("id", "f2", "payload.score", 10), Map.of("id", "f1", "payload.score", 2))));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)")))
                .body("result", equalTo(List.of(Map.of("count(*)", 3))));
        client.post("/feedback/query", Map.of("project_id", client.project, "limit", 1, "offset", 2))
                .body("result.size()", equalTo(1))
                .body("result[0].id", equalTo("f3"))
                .body("result[0].payload", equalTo(Map.of("note", "hi")))
                .body("result[0].svc_user_id", equalTo(client.user))
                // Every column of the reference's feedback table: 13, and the 12 scorer and span columns.
                .body("result[0].size()", equalTo(25));
        client.post("/feedback/query", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$gte",
                List.of(Map.of("$getField", "created_at"), Map.of("$literal", "2020-01-01"))))))
                .body("result.size()", equalTo(3));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("nope"))).statusCode(400)
                .body("reason", equalTo("Unknown field: nope"));
    }

    @Test
    void purgeTakesOnlyIdQueriesAndReplaceSwapsTheRow() {
        client.post("/feedback/create", withId("f1", feedback("c1", "custom", Map.of("v", 1)))).statusCode(200);
        client.post("/feedback/create", withId("f2", feedback("c1", "custom", Map.of("v", 2)))).statusCode(200);
        client.post("/feedback/create", withId("f3", feedback("c1", "custom", Map.of("v", 3)))).statusCode(200);

        client.post("/feedback/purge", Map.of("project_id", client.project, "query", Map.of("$expr",
                Map.of("$eq", List.of(Map.of("$getField", "feedback_type"), Map.of("$literal", "custom"))))))
                .statusCode(400).body("reason", equalTo("Can only purge feedback by specifying one or more feedback ids"));
        client.post("/feedback/purge", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$or", List.of(
                idIs("f1"), idIs("missing")))))).statusCode(200).body("", equalTo(Map.of()));
        client.post("/feedback/purge", Map.of("project_id", client.project, "query", Map.of("$expr", idIs("f2"))))
                .statusCode(200);

        Map<String, Object> replacement = feedback("c1", "custom", Map.of("v", 30));
        replacement.put("feedback_id", "f3");
        String newId = client.post("/feedback/replace", replacement).statusCode(200).extract().path("id");
        List<Map<String, Object>> left = client.post("/feedback/query", Map.of("project_id", client.project,
                "fields", List.of("id", "payload"))).extract().path("result");
        assertEquals(List.of(Map.of("id", newId, "payload", Map.of("v", 30))), left);
    }

    @Test
    void aBatchCreatesEveryItemOrNone() {
        client.post("/feedback/batch/create", Map.of("batch", List.of(feedback("c1", "custom", Map.of("a", 1)),
                feedback("c1", "wandb.note.1", Map.of("note", ""))))).statusCode(400);
        client.post("/feedback/batch/create", Map.of("batch", List.of(feedback("c1", "custom", Map.of("a", 1)),
                feedback("c2", "wandb.reaction.1", Map.of("emoji", "🎱"))))).statusCode(200)
                .body("res.size()", equalTo(2))
                .body("res[1].payload.alias", equalTo(":pool_8_ball:"));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)")))
                .body("result[0].'count(*)'", equalTo(2));
    }

    /** {@code FeedbackCreateBatchReq(batch=...).model_dump_json()} of the Python SDK: every field, defaults included. */
    @Test
    void aBatchAsTheNewestPythonSdkDumpsItIsAccepted() {
        Map<String, Object> item = pythonDump(feedback("c1", "custom", Map.of("a", 1)));
        client.post("/feedback/batch/create", Map.of("batch", List.of(item, pythonDump(feedback("c2", "custom",
                Map.of("a", 2)))))).statusCode(200).body("res.size()", equalTo(2));

        Map<String, Object> tagged = pythonDump(feedback("c1", "custom", Map.of("a", 1)));
        tagged.put("scorer_tags", List.of("nsfw"));
        client.post("/feedback/batch/create", Map.of("batch", List.of(tagged))).statusCode(400)
                .body("reason", equalTo("scorer_tags, scorer_tag_reasons, scorer_tag_confidences, scorer_ratings, "
                        + "scorer_rating_reasons, and scorer_rating_confidences are only allowed on wandb.agent_monitor, "
                        + "wandb.agent_user_feedback, or wandb.runnable feedback"));
        Map<String, Object> scored = pythonDump(scorerFeedback("c3"));
        scored.put("scorer_tags", List.of("toxic"));
        scored.put("span_agent_name", "midi-generator");
        client.post("/feedback/batch/create", Map.of("batch", List.of(scored))).statusCode(200);
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("scorer_tags", "span_agent_name",
                "span_status_code"), "query", Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "weave_ref"),
                Map.of("$literal", "weave:///" + client.project + "/call/c3")))))).statusCode(200)
                .body("result", equalTo(List.of(Map.of("scorer_tags", List.of("toxic"), "span_agent_name", "midi-generator",
                        "span_status_code", "UNSET"))));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)")))
                .body("result[0].'count(*)'", equalTo(3));
    }

    /** The typed scorer and agent-span columns of the reference's feedback table, stored and read back as given. */
    @Test
    void scorerAndSpanFieldsAreStoredQueriedFilteredAndSorted() {
        Map<String, Object> judged = scorerFeedback("c1");
        judged.put("scorer_tags", List.of("nsfw", "rude"));
        judged.put("scorer_tag_reasons", Map.of("nsfw", "explicit"));
        judged.put("scorer_tag_confidences", Map.of("nsfw", 0.92));
        judged.put("scorer_ratings", Map.of("_rating_", 1));
        judged.put("scorer_rating_reasons", Map.of("_rating_", "very confident"));
        judged.put("scorer_rating_confidences", Map.of("_rating_", 0.5));
        judged.put("span_agent_name", "midi-generator");
        judged.put("span_agent_version", "1.2.0");
        judged.put("span_status_code", "OK");
        judged.put("span_conversation_id", "conv-1");
        judged.put("span_trace_id", "trace-1");
        judged.put("scorer_trace_id", "judge-1");
        String judgedId = client.post("/feedback/create", judged).statusCode(200).extract().path("id");
        Map<String, Object> plainScore = scorerFeedback("c2");
        plainScore.put("scorer_ratings", Map.of("_rating_", 0.25));
        String plainId = client.post("/feedback/create", plainScore).statusCode(200).extract().path("id");
        String noteId = client.post("/feedback/create", feedback("c3", "wandb.note.1", Map.of("note", "n"))).statusCode(200)
                .extract().path("id");

        List<String> fields = List.of("id", "scorer_tags", "scorer_tag_reasons", "scorer_tag_confidences", "scorer_ratings",
                "scorer_rating_reasons", "scorer_rating_confidences", "span_agent_name", "span_agent_version",
                "span_status_code", "span_conversation_id", "span_trace_id", "scorer_trace_id");
        List<Map<String, Object>> rows = client.post("/feedback/query", Map.of("project_id", client.project, "fields", fields,
                "sort_by", List.of(Map.of("field", "span_agent_name", "direction", "desc"), Map.of("field", "created_at",
                        "direction", "asc")))).statusCode(200).extract().path("result");
        Map<String, Object> stored = new HashMap<>();
        stored.put("id", judgedId);
        stored.put("scorer_tags", List.of("nsfw", "rude"));
        stored.put("scorer_tag_reasons", Map.of("nsfw", "explicit"));
        stored.put("scorer_tag_confidences", Map.of("nsfw", 0.92f));
        stored.put("scorer_ratings", Map.of("_rating_", 1.0f));
        stored.put("scorer_rating_reasons", Map.of("_rating_", "very confident"));
        stored.put("scorer_rating_confidences", Map.of("_rating_", 0.5f));
        stored.put("span_agent_name", "midi-generator");
        stored.put("span_agent_version", "1.2.0");
        stored.put("span_status_code", "OK");
        stored.put("span_conversation_id", "conv-1");
        stored.put("span_trace_id", "trace-1");
        stored.put("scorer_trace_id", "judge-1");
        assertEquals(stored, rows.get(0));
        assertEquals(List.of(judgedId, plainId, noteId), rows.stream().map(row -> row.get("id")).toList());
        Map<String, Object> defaults = new HashMap<>(Map.of("id", noteId, "scorer_tags", List.of(), "scorer_ratings", Map.of(),
                "span_agent_name", "", "span_status_code", "UNSET", "scorer_trace_id", ""));
        for (String field : List.of("scorer_tag_reasons", "scorer_tag_confidences", "scorer_rating_reasons",
                "scorer_rating_confidences")) {
            defaults.put(field, Map.of());
        }
        defaults.put("span_agent_version", "");
        defaults.put("span_conversation_id", "");
        defaults.put("span_trace_id", "");
        assertEquals(defaults, rows.get(2));

        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("id"), "query",
                Map.of("$expr", Map.of("$gte", List.of(Map.of("$getField", "scorer_ratings._rating_"), Map.of("$literal", 0.5))))))
                .statusCode(200).body("result.id", equalTo(List.of(judgedId)));
        client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("id"), "query",
                Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "span_status_code"), Map.of("$literal", "UNSET"))))))
                .statusCode(200).body("result.id", equalTo(List.of(plainId, noteId)));
    }

    @Test
    void scorerFieldsFollowTheReferenceRules() {
        Map<String, Object> badStatus = scorerFeedback("c1");
        badStatus.put("span_status_code", "FINE");
        client.post("/feedback/create", badStatus).statusCode(400)
                .body("reason", equalTo("Invalid span_status_code: FINE (one of UNSET, OK, ERROR)"));
        Map<String, Object> nullRating = scorerFeedback("c1");
        Map<String, Object> ratings = new HashMap<>();
        ratings.put("_rating_", null);
        nullRating.put("scorer_ratings", ratings);
        client.post("/feedback/create", nullRating).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "scorer_ratings", "_rating_")));

        Map<String, Object> userFeedback = feedback("c1", "wandb.agent_user_feedback", Map.of());
        client.post("/feedback/create", userFeedback).statusCode(400)
                .body("reason", equalTo("scorer_tags is required for agent user feedback"));
        userFeedback.put("scorer_tags", List.of("thumbs_up"));
        userFeedback.put("scorer_tag_confidences", Map.of("thumbs_up", 1.0));
        client.post("/feedback/create", userFeedback).statusCode(200);

        Map<String, Object> monitor = feedback("c1", "wandb.agent_monitor", Map.of("output", 1));
        monitor.put("scorer_ratings", Map.of("_rating_", 0.7));
        client.post("/feedback/create", monitor).statusCode(400)
                .body("reason", equalTo("runnable_ref is required for agent monitor feedback"));
        monitor.put("runnable_ref", "weave:///" + client.project + "/object/judge:abc");
        client.post("/feedback/create", monitor).statusCode(400)
                .body("reason", equalTo("call_ref is required for agent monitor feedback"));
        monitor.put("call_ref", "weave:///" + client.project + "/call/judge-call");
        client.post("/feedback/create", monitor).statusCode(400)
                .body("reason", equalTo("trigger_ref is required for agent monitor feedback"));
        monitor.put("trigger_ref", "weave:///" + client.project + "/object/monitor:v1");
        client.post("/feedback/create", monitor).statusCode(200);
    }

    private Map<String, Object> scorerFeedback(String callId) {
        Map<String, Object> scored = feedback(callId, "wandb.runnable.judge", Map.of("output", Map.of("score", 1)));
        scored.put("runnable_ref", "weave:///" + client.project + "/object/judge:abc");
        return scored;
    }

    private static Map<String, Object> pythonDump(Map<String, Object> feedback) {
        Map<String, Object> dump = new HashMap<>(feedback);
        for (String field : List.of("id", "creator", "annotation_ref", "runnable_ref", "call_ref", "trigger_ref",
                "queue_id", "wb_user_id")) {
            dump.putIfAbsent(field, null);
        }
        dump.put("scorer_tags", List.of());
        for (String field : List.of("scorer_tag_reasons", "scorer_tag_confidences", "scorer_ratings",
                "scorer_rating_reasons", "scorer_rating_confidences")) {
            dump.put(field, Map.of());
        }
        for (String field : List.of("span_agent_name", "span_agent_version", "span_conversation_id", "span_trace_id",
                "scorer_trace_id")) {
            dump.put(field, "");
        }
        dump.put("span_status_code", "UNSET");
        return dump;
    }

    @Test
    void callQueriesIncludeAndFilterAndSortByFeedback() {
        client.write(List.of(client.start("c1", "op", CallQueryApiTest.at(1)), client.start("c2", "op", CallQueryApiTest.at(2)),
                client.start("c3", "op", CallQueryApiTest.at(3))), List.of());
        String scorerType = "wandb.runnable.my_scorer";
        for (Object[] score : new Object[][] {{"c1", 0.2}, {"c2", 0.9}}) {
            Map<String, Object> runnable = feedback((String) score[0], scorerType, Map.of("output", Map.of("score", score[1])));
            runnable.put("runnable_ref", "weave:///" + client.project + "/object/my_scorer:abc");
            runnable.put("scorer_ratings", Map.of("_rating_", score[1]));
            client.post("/feedback/create", runnable).statusCode(200);
        }
        client.post("/feedback/create", feedback("c1", "wandb.note.1", Map.of("note", "first"))).statusCode(200);

        List<Map<String, Object>> calls = client.query(Map.of("include_feedback", true));
        assertEquals(2, feedbackOf(calls.get(0)).size());
        assertEquals("wandb.runnable.my_scorer", feedbackOf(calls.get(0)).get(0).get("feedback_type"));
        // The reference's calls hydration asks for the scorer columns, not the span ones.
        Map<String, Object> scored = feedbackOf(calls.get(0)).get(0);
        assertEquals(List.of(List.of(), Map.of("_rating_", 0.2), Map.of(), false), List.of(scored.get("scorer_tags"),
                scored.get("scorer_ratings"), scored.get("scorer_rating_reasons"), scored.containsKey("span_agent_name")));
        assertEquals(List.of(), feedbackOf(calls.get(2)));
        assertEquals(null, CallQueryApiTest.weave(client.query(Map.of()).get(0)).get("feedback"));

        String path = "feedback.[wandb.runnable.my_scorer].payload.output.score";
        assertEquals(List.of("c2"), client.ids(Map.of("query", Map.of("$expr", Map.of("$gt", List.of(
                Map.of("$getField", path), Map.of("$literal", 0.5)))))));
        assertEquals(List.of("c2", "c1", "c3"), client.ids(Map.of("sort_by", List.of(Map.of("field", path,
                "direction", "desc")))));
        assertEquals(List.of("c1", "c2"), client.ids(Map.of("query", Map.of("$expr", Map.of("$eq", List.of(
                Map.of("$getField", "feedback.[wandb.runnable.my_scorer].runnable_ref"),
                Map.of("$literal", "weave:///" + client.project + "/object/my_scorer:abc")))))));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> feedbackOf(Map<String, Object> call) {
        return (List<Map<String, Object>>) CallQueryApiTest.weave(call).get("feedback");
    }

    private Map<String, Object> feedback(String callId, String type, Map<String, Object> payload) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", client.project);
        body.put("weave_ref", "weave:///" + client.project + "/call/" + callId);
        body.put("feedback_type", type);
        body.put("payload", payload);
        return body;
    }

    private static Map<String, Object> withId(String id, Map<String, Object> body) {
        body.put("id", id);
        return body;
    }

    private static Map<String, Object> idIs(String id) {
        return Map.of("$eq", List.of(Map.of("$getField", "id"), Map.of("$literal", id)));
    }
}
