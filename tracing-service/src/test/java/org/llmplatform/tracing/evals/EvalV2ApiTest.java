package org.llmplatform.tracing.evals;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** The v2 evaluation routes, read back through the v1 object and call reads (docs/tracing-service.md#evaluations-as-data). */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EvalV2ApiTest {

    private TraceClient client;
    private String base;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("evals");
        base = "/v2/" + client.project;
    }

    private ValidatableResponse post(String path, Object body) {
        return client.post(base + path, body);
    }

    private ValidatableResponse get(String path) {
        return given().header("Authorization", "Bearer " + client.key).get(base + path).then();
    }

    private ValidatableResponse delete(String path) {
        return given().header("Authorization", "Bearer " + client.key).delete(base + path).then();
    }

    private List<Map<String, Object>> lines(String path) {
        return TraceClient.parseLines(get(path).statusCode(200).extract().asString());
    }

    private Map<String, Object> obj(String objectId, String digest) {
        return client.post("/obj/read", Map.of("project_id", client.project, "object_id", objectId, "digest", digest))
                .statusCode(200).extract().path("obj");
    }

    @Test
    void anOpIsACustomTypeWhoseSourceIsItsObjPyFile() {
        String digest = post("/ops", Map.of("name", "My Op", "source_code", "def f(): return 1\n")).statusCode(200)
                .body("object_id", equalTo("my_op")).body("version_index", equalTo(0)).extract().path("digest");
        get("/ops/my_op/versions/" + digest).statusCode(200).body("code", equalTo("def f(): return 1\n"))
                .body("digest", equalTo(digest));
        Map<String, Object> stored = obj("my_op", digest);
        assertEquals("op", stored.get("kind"));
        assertEquals(Map.of("type", "Op"), ((Map<?, ?>) stored.get("val")).get("weave_type"));
        assertEquals(List.of("my_op"), lines("/ops").stream().map(op -> op.get("object_id")).toList());
        post("/datasets", Map.of("name", "not-an-op", "rows", List.of())).statusCode(200);
        delete("/ops/not-an-op").statusCode(404).body("reason", equalTo("Op object not-an-op (None) not found when deleting."));
        assertEquals(1, (int) delete("/ops/my_op").statusCode(200).extract().path("num_deleted"));
        get("/ops/my_op/versions/" + digest).statusCode(404);
    }

    @Test
    void datasetsScorersModelsAndEvaluationsAreObjectsOfTheirBaseClass() {
        String dataset = post("/datasets", Map.of("name", "QA Set", "rows", List.of(Map.of("q", "1+1", "a", "2"))))
                .statusCode(200).body("object_id", equalTo("qa_set")).extract().path("digest");
        Map<String, Object> datasetVal = (Map<String, Object>) obj("qa_set", dataset).get("val");
        assertEquals("Dataset", datasetVal.get("_class_name"));
        assertEquals(List.of("Object", "BaseModel"), datasetVal.get("_bases"));
        String rows = (String) datasetVal.get("rows");
        assertTrue(rows.startsWith("weave:///" + client.project + "/table/"), rows);
        get("/datasets/qa_set/versions/" + dataset).statusCode(200).body("name", equalTo("QA Set")).body("rows", equalTo(rows));

        String scorerRef = post("/scorers", Map.of("name", "exact", "op_source_code", "def score(output): return True\n"))
                .statusCode(200).extract().path("scorer");
        assertTrue(scorerRef.startsWith("weave:///" + client.project + "/object/exact:"), scorerRef);
        String modelRef = post("/models", Map.of("name", "echo", "source_code", "def predict(q): return q\n",
                "attributes", Map.of("temperature", 0.5))).statusCode(200).extract().path("model_ref");
        String modelDigest = modelRef.substring(modelRef.lastIndexOf(':') + 1);
        get("/models/echo/versions/" + modelDigest).statusCode(200).body("source_code", equalTo("def predict(q): return q\n"))
                .body("attributes.temperature", equalTo(0.5f));
        String datasetRef = "weave:///" + client.project + "/object/qa_set:" + dataset;
        String evaluationRef = post("/evaluations", Map.of("name", "qa-eval", "dataset", datasetRef, "scorers", List.of(scorerRef)))
                .statusCode(200).extract().path("evaluation_ref");
        String evaluationDigest = evaluationRef.substring(evaluationRef.lastIndexOf(':') + 1);
        get("/evaluations/qa-eval/versions/" + evaluationDigest).statusCode(200).body("dataset", equalTo(datasetRef))
                .body("scorers", equalTo(List.of(scorerRef))).body("trials", equalTo(1));

        List<Map<String, Object>> objs = client.post("/objs/query", Map.of("project_id", client.project,
                "filter", Map.of("base_object_classes", List.of("Evaluation")))).statusCode(200).extract().path("objs");
        assertEquals(List.of("qa-eval"), objs.stream().map(o -> o.get("object_id")).toList());
        assertEquals(List.of("exact"), lines("/scorers").stream().map(s -> s.get("object_id")).toList());
        assertEquals(List.of("echo"), lines("/models").stream().map(s -> s.get("object_id")).toList());
        assertEquals(List.of("qa_set"), lines("/datasets").stream().map(s -> s.get("object_id")).toList());
        assertEquals(1, lines("/evaluations").size());
        assertEquals(1, (int) delete("/datasets/qa_set?digests=" + dataset).statusCode(200).extract().path("num_deleted"));
    }

    @Test
    void aRunItsPredictionsAndScoresAreTheCallsOfAnEvaluation() {
        String evaluation = "weave:///" + client.project + "/object/e:abc";
        String model = "weave:///" + client.project + "/object/echo:def";
        String scorer = "weave:///" + client.project + "/object/exact:ghi";
        String runId = post("/evaluation_runs", Map.of("evaluation", evaluation, "model", model)).statusCode(200)
                .extract().path("evaluation_run_id");
        String predictionId = post("/predictions", Map.of("model", model, "inputs", Map.of("q", "2+2"), "output", "4",
                "evaluation_run_id", runId)).statusCode(200).extract().path("prediction_id");
        String scoreId = post("/scores", Map.of("prediction_id", predictionId, "scorer", scorer, "value", true,
                "evaluation_run_id", runId)).statusCode(200).extract().path("score_id");
        post("/predictions/" + predictionId + "/finish", Map.of()).statusCode(200).body("success", equalTo(true));
        get("/evaluation_runs/" + runId).statusCode(200).body("status", equalTo("running")).body("model", equalTo(model));
        post("/evaluation_runs/" + runId + "/finish", Map.of("summary", Map.of("exact", Map.of("true_count", 1))))
                .statusCode(200).body("success", equalTo(true));
        get("/evaluation_runs/" + runId).statusCode(200).body("status", equalTo("success"))
                .body("summary.exact.true_count", equalTo(1)).body("evaluation", equalTo(evaluation));

        List<Map<String, Object>> calls = client.query(Map.of("filter", Map.of("trace_ids", List.of(runId))));
        Map<String, Map<String, Object>> byOp = new java.util.HashMap<>();
        calls.forEach(call -> byOp.put(opName((String) call.get("op_name")), call));
        assertEquals(5, calls.size(), calls.toString());
        Map<String, Object> root = byOp.get("Evaluation.evaluate");
        assertEquals(Map.of("self", evaluation, "model", model), root.get("inputs"));
        Map<String, Object> predictAndScore = byOp.get("Evaluation.predict_and_score");
        assertEquals(runId, predictAndScore.get("parent_id"));
        Map<String, Object> output = (Map<String, Object>) predictAndScore.get("output");
        assertEquals("4", output.get("output"));
        assertEquals(Map.of("exact", true), output.get("scores"));
        assertNotNull(((Map<?, ?>) output.get("model_latency")).get("mean"));
        assertEquals(predictAndScore.get("id"), byOp.get("echo.predict").get("parent_id"));
        assertEquals(predictAndScore.get("id"), byOp.get("exact.score").get("parent_id"));
        // the op a call names is a published op version
        String opRef = (String) root.get("op_name");
        obj("Evaluation.evaluate", opRef.substring(opRef.lastIndexOf(':') + 1));

        get("/predictions/" + predictionId).statusCode(200).body("output", equalTo("4")).body("inputs.q", equalTo("2+2"))
                .body("evaluation_run_id", equalTo(runId)).body("svc_user_id", equalTo(client.user));
        get("/scores/" + scoreId).statusCode(200).body("value", equalTo(true)).body("scorer", equalTo(scorer));
        assertEquals(List.of(runId), lines("/evaluation_runs?models=" + model).stream().map(r -> r.get("evaluation_run_id")).toList());
        assertEquals(List.of(), lines("/evaluation_runs?models=other"));
        assertEquals(List.of(predictionId), lines("/predictions?evaluation_run_id=" + runId).stream()
                .map(p -> p.get("prediction_id")).toList());
        assertEquals(List.of(scoreId), lines("/scores").stream().map(s -> s.get("score_id")).toList());
        List<Map<String, Object>> feedback = client.post("/feedback/query", Map.of("project_id", client.project))
                .statusCode(200).extract().path("result");
        assertEquals("wandb.runnable.exact", feedback.get(0).get("feedback_type"));

        assertEquals(1, (int) delete("/scores?score_ids=" + scoreId).statusCode(200).extract().path("num_deleted"));
        get("/scores/" + scoreId).statusCode(404);
        delete("/evaluation_runs?evaluation_run_ids=" + runId).statusCode(200);
        get("/predictions/" + predictionId).statusCode(404);
    }

    @Test
    void aFinishedRunsOutputIsTheMeanOfItsFloatScoresAndNumericOutputsWrittenByASummarizeChild() {
        String evaluation = "weave:///" + client.project + "/object/e:abc";
        String model = "weave:///" + client.project + "/object/echo:def";
        String runId = post("/evaluation_runs", Map.of("evaluation", evaluation, "model", model)).statusCode(200)
                .extract().path("evaluation_run_id");
        Object[][] predictions = {{3, true, 0.75, 2}, {"x", false, 0.25, 4}};
        for (Object[] prediction : predictions) {
            String id = post("/predictions", Map.of("model", model, "inputs", Map.of("q", "?"), "output", prediction[0],
                    "evaluation_run_id", runId)).statusCode(200).extract().path("prediction_id");
            for (Object[] score : new Object[][] {{"exact", prediction[1]}, {"close", prediction[2]}, {"count", prediction[3]}}) {
                post("/scores", Map.of("prediction_id", id, "scorer", "weave:///" + client.project + "/object/" + score[0] + ":v",
                        "value", score[1], "evaluation_run_id", runId)).statusCode(200);
            }
            post("/predictions/" + id + "/finish", Map.of()).statusCode(200);
        }
        post("/evaluation_runs/" + runId + "/finish", Map.of("summary", Map.of("given", 1))).statusCode(200);

        // As the reference: only floats are averaged (a boolean or an integer score is not), outputs when numeric.
        Map<String, Object> means = Map.of("close", Map.of("mean", 0.5), "output", Map.of("mean", 3.0));
        Map<String, Object> root = client.query(Map.of("filter", Map.of("call_ids", List.of(runId)))).get(0);
        assertEquals(means, root.get("output"));
        assertEquals(1, ((Map<?, ?>) root.get("summary")).get("given"));
        List<Map<String, Object>> summarize = client.query(Map.of("filter", Map.of("parent_ids", List.of(runId))))
                .stream().filter(call -> opName((String) call.get("op_name")).equals("Evaluation.summarize")).toList();
        assertEquals(1, summarize.size());
        assertEquals(means, summarize.get(0).get("output"));
        assertEquals(Map.of("self", evaluation), summarize.get(0).get("inputs"));
    }

    @Test
    void aRescoringRunKeepsItsSourceRunAndOthersAnswerNull() {
        String evaluation = "weave:///" + client.project + "/object/e:abc";
        String model = "weave:///" + client.project + "/object/echo:def";
        String source = post("/evaluation_runs", Map.of("evaluation", evaluation, "model", model)).statusCode(200)
                .extract().path("evaluation_run_id");
        String rescored = post("/evaluation_runs", Map.of("evaluation", evaluation, "model", model,
                "source_evaluation_run_id", source)).statusCode(200).extract().path("evaluation_run_id");
        get("/evaluation_runs/" + rescored).statusCode(200).body("source_evaluation_run_id", equalTo(source));
        get("/evaluation_runs/" + source).statusCode(200).body("$", hasKey("source_evaluation_run_id"))
                .body("source_evaluation_run_id", nullValue());
        assertEquals(source, lines("/evaluation_runs?evaluation_run_ids=" + rescored).get(0).get("source_evaluation_run_id"));
        post("/evaluation_runs", Map.of("evaluation", evaluation, "model", model, "source_evaluation_run_id",
                "r".repeat(200))).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "source_evaluation_run_id")));
    }

    @Test
    void anOpReadTakesEagerAsABooleanAndAlwaysAnswersTheCode() {
        String digest = post("/ops", Map.of("name", "lazy", "source_code", "def f(): return 2\n")).statusCode(200)
                .extract().path("digest");
        for (String eager : List.of("?eager=true", "?eager=false", "?eager=0", "")) {
            get("/ops/lazy/versions/" + digest + eager).statusCode(200).body("code", equalTo("def f(): return 2\n"));
        }
        get("/ops/lazy/versions/" + digest + "?eager=maybe").statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "eager"))).body("detail[0].type", equalTo("bool_parsing"));
    }

    @Test
    void aMissingOrOverlongFieldIsRefusedNamingIt() {
        post("/evaluation_runs", Map.of("model", "m")).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "evaluation")));
        post("/scorers", Map.of("name", "s")).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "op_source_code")));
        post("/datasets", Map.of("name", "d")).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "rows")));
        post("/predictions", Map.of("model", "x".repeat(600), "inputs", Map.of(), "output", 1)).statusCode(422)
                .body("detail[0].loc", hasItem("model"));
        get("/evaluation_runs/" + "r".repeat(200)).statusCode(422).body("detail[0].loc", equalTo(List.of("path", "evaluation_run_id")));
        delete("/scores").statusCode(422).body("detail[0].loc", equalTo(List.of("query", "score_ids")));
        post("/scores", Map.of("prediction_id", "p", "scorer", "not a ref", "value", 1)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "scorer")));
        get("/evaluation_runs/nope").statusCode(404);
    }

    @Test
    void aStrangersKeyIsRefusedBeforeTheBodyIsRead() {
        TraceClient stranger = new TraceClient("evals-stranger");
        given().header("Authorization", "Bearer " + stranger.key).contentType(ContentType.JSON).body("{\"model\": 3}")
                .post(base + "/evaluation_runs").then().statusCode(403);
        given().header("Authorization", "Bearer " + stranger.key).get(base + "/datasets").then().statusCode(403);
        post("/ops", Map.of("name", "o")).statusCode(200);
        given().header("Authorization", "Bearer " + stranger.key).get(base + "/ops").then().statusCode(403)
                .body(startsWith("{"));
    }

    private static String opName(String ref) {
        String nameAndDigest = ref.substring(ref.lastIndexOf('/') + 1);
        return nameAndDigest.substring(0, nameAndDigest.lastIndexOf(':'));
    }
}
