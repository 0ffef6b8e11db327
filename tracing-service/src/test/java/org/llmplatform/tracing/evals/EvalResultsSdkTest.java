package org.llmplatform.tracing.evals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.WeaveSdkScripts;

/**
 * An evaluation the Weave TypeScript SDK logs ({@code src/test/node/weave-eval.mjs}) and one logged through the v2
 * routes look the same to the readers: the same op names and object classes, and {@code eval_results/query} answers
 * for both. Needs {@code npm ci --prefix src/test/node}; skipped where Node or that install is missing.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@SuppressWarnings("unchecked")
class EvalResultsSdkTest {


    @TestHTTPResource("/")
    URL base;

    @Test
    void anSdkEvaluationAndAV2EvaluationReadTheSameWay() throws Exception {
        WeaveSdkScripts.assumeInstalled();
        TraceClient client = new TraceClient("evals-sdk");
        runSdkEvaluation(client);
        String v2 = "/v2/" + client.project;

        String dataset = client.post(v2 + "/datasets", Map.of("name", "arithmetic-v2",
                "rows", List.of(Map.of("question", "1+1", "expected", "2")))).statusCode(200).extract().path("digest");
        String scorer = client.post(v2 + "/scorers", Map.of("name", "exact", "op_source_code", "def exact(): ...\n"))
                .statusCode(200).extract().path("scorer");
        String model = client.post(v2 + "/models", Map.of("name", "calculator", "source_code", "def predict(): ...\n"))
                .statusCode(200).extract().path("model_ref");
        String evaluation = client.post(v2 + "/evaluations", Map.of("name", "arithmetic-v2-eval",
                "dataset", "weave:///" + client.project + "/object/arithmetic-v2:" + dataset, "scorers", List.of(scorer)))
                .statusCode(200).extract().path("evaluation_ref");
        String runId = client.post(v2 + "/evaluation_runs", Map.of("evaluation", evaluation, "model", model))
                .statusCode(200).extract().path("evaluation_run_id");
        Map<String, Object> example = Map.of("question", "1+1", "expected", "2");
        String prediction = client.post(v2 + "/predictions", Map.of("model", model, "inputs", example, "output", "2",
                "evaluation_run_id", runId)).statusCode(200).extract().path("prediction_id");
        client.post(v2 + "/scores", Map.of("prediction_id", prediction, "scorer", scorer, "value", true,
                "evaluation_run_id", runId)).statusCode(200);
        client.post(v2 + "/predictions/" + prediction + "/finish", Map.of()).statusCode(200);
        client.post(v2 + "/evaluation_runs/" + runId + "/finish", Map.of()).statusCode(200);

        List<Map<String, Object>> roots = client.query(Map.of("filter", Map.of("trace_roots_only", true))).stream()
                .filter(call -> opName(call).equals("Evaluation.evaluate")).toList();
        assertEquals(2, roots.size(), "an SDK root and a v2 root: " + roots);
        Map<String, Object> sdkRootCall = roots.stream().filter(call -> !call.get("id").equals(runId)).findFirst().orElseThrow();
        String sdkRoot = (String) sdkRootCall.get("id");
        String sdkEvaluationRef = (String) ((Map<String, Object>) sdkRootCall.get("inputs")).get("self");
        String sdkEvaluation = sdkEvaluationRef.substring(sdkEvaluationRef.lastIndexOf('/') + 1, sdkEvaluationRef.lastIndexOf(':'));
        for (Map<String, Object> root : roots) {
            Map<String, Object> inputs = (Map<String, Object>) root.get("inputs");
            assertTrue(String.valueOf(inputs.get("self")).startsWith("weave:///" + client.project + "/object/"), inputs.toString());
            assertNotNull(inputs.get("model"));
            Set<String> childOps = client.query(Map.of("filter", Map.of("parent_ids", List.of(root.get("id"))))).stream()
                    .map(EvalResultsSdkTest::opName).collect(Collectors.toSet());
            // The trials, and the summary of a finished v2 run as the Python SDK writes its own: an Evaluation.summarize child.
            assertTrue(childOps.stream().allMatch(op -> EvalResultRows.isPredictAndScore(op) || op.equals("Evaluation.summarize")),
                    childOps.toString());
        }
        List<Map<String, Object>> evaluations = client.post("/objs/query", Map.of("project_id", client.project,
                "filter", Map.of("base_object_classes", List.of("Evaluation")))).statusCode(200).extract().path("objs");
        assertEquals(Set.of(sdkEvaluation, "arithmetic-v2-eval"),
                evaluations.stream().map(obj -> obj.get("object_id")).collect(Collectors.toSet()));

        assertEquals(sdkEvaluationRef, summaryOf(results(client, Map.of("evaluation_call_ids", List.of(sdkRoot),
                "include_summary", true, "include_rows", false))).get("evaluation_ref"));
        Map<String, Object> sdkResults = results(client, Map.of("evaluation_call_ids", List.of(sdkRoot), "include_summary", true));
        assertEquals(2, sdkResults.get("total_rows"));
        Map<String, Object> sdkSummary = ((List<Map<String, Object>>) ((Map<String, Object>) sdkResults.get("summary"))
                .get("evaluations")).get(0);
        assertEquals(2, sdkSummary.get("trial_count"));
        Map<String, Object> sdkExact = ((List<Map<String, Object>>) sdkSummary.get("scorer_stats")).stream()
                .filter(stat -> stat.get("scorer_key").equals("exact")).findFirst().orElseThrow();
        assertEquals(0.5, ((Number) sdkExact.get("pass_rate")).doubleValue());
        // The TypeScript SDK's trial: its model_output, and the call of the model (an op) as the prediction.
        Map<String, Map<String, Object>> sdkTrials = ((List<Map<String, Object>>) sdkResults.get("rows")).stream()
                .map(row -> ((List<Map<String, Object>>) ((List<Map<String, Object>>) row.get("evaluations")).get(0).get("trials")).get(0))
                .collect(Collectors.toMap(trial -> String.valueOf(trial.get("model_output")), trial -> trial));
        assertEquals(Set.of("2", "5"), sdkTrials.keySet());
        String predictCall = (String) sdkTrials.get("5").get("predict_call_id");
        assertNotNull(predictCall);
        assertEquals("calculator", opName(client.query(Map.of("filter", Map.of("call_ids", List.of(predictCall)))).get(0)));

        Map<String, Object> both = results(client, Map.of("evaluation_call_ids", List.of(sdkRoot),
                "evaluation_run_ids", List.of(runId), "include_summary", true, "include_raw_data_rows", true, "resolve_row_refs", true));
        List<Map<String, Object>> summaries = (List<Map<String, Object>>) ((Map<String, Object>) both.get("summary")).get("evaluations");
        assertEquals(Set.of(sdkRoot, runId), summaries.stream().map(s -> s.get("evaluation_call_id")).collect(Collectors.toSet()));
        Map<String, Object> v2Summary = summaries.stream().filter(s -> s.get("evaluation_call_id").equals(runId)).findFirst().orElseThrow();
        assertEquals(evaluation, v2Summary.get("evaluation_ref"));
        assertEquals(model, v2Summary.get("model_ref"));
        Map<String, Object> v2Row = ((List<Map<String, Object>>) both.get("rows")).stream()
                .filter(row -> ((List<Map<String, Object>>) row.get("evaluations")).stream()
                        .anyMatch(e -> e.get("evaluation_call_id").equals(runId))).findFirst().orElseThrow();
        // The SDK's example is a row ref, whose digest is the digest of the same row sent as a value: one row, both evaluations.
        assertEquals(example, v2Row.get("raw_data_row"));
        assertEquals(2, ((List<?>) v2Row.get("evaluations")).size());
        Map<String, Object> trial = ((List<Map<String, Object>>) ((List<Map<String, Object>>) v2Row.get("evaluations")).stream()
                .filter(e -> e.get("evaluation_call_id").equals(runId)).findFirst().orElseThrow().get("trials")).get(0);
        assertEquals("2", trial.get("model_output"));
        assertEquals(Map.of("exact", true), trial.get("scores"));
        assertEquals(prediction, trial.get("predict_call_id"));
        assertEquals(2, both.get("total_rows"));
        Map<String, Object> intersected = results(client, Map.of("evaluation_call_ids", List.of(sdkRoot),
                "evaluation_run_ids", List.of(runId), "require_intersection", true, "limit", 10));
        assertEquals(1, intersected.get("total_rows"), "only 1+1 was evaluated by both");
    }

    @Test
    void noEvaluationGivesNoRowsAndAnEmptySummary() {
        TraceClient client = new TraceClient("evals-none");
        Map<String, Object> none = results(client, Map.of("include_summary", true));
        assertEquals(0, none.get("total_rows"));
        assertEquals(Map.of("row_count", 0, "evaluations", List.of()), none.get("summary"));
        client.post("/v2/" + client.project + "/eval_results/query", Map.of("evaluation_call_ids", List.of("x".repeat(200))))
                .statusCode(422);
        client.post("/v2/" + client.project + "/eval_results/query", Map.of("limit", -1)).statusCode(422);
    }

    private static Map<String, Object> results(TraceClient client, Map<String, Object> body) {
        return client.post("/v2/" + client.project + "/eval_results/query", body).statusCode(200).extract().as(Map.class);
    }

    private static Map<String, Object> summaryOf(Map<String, Object> results) {
        return ((List<Map<String, Object>>) ((Map<String, Object>) results.get("summary")).get("evaluations")).get(0);
    }

    private static String opName(Map<String, Object> call) {
        String ref = (String) call.get("op_name");
        String nameAndDigest = ref.substring(ref.lastIndexOf('/') + 1);
        return nameAndDigest.contains(":") ? nameAndDigest.substring(0, nameAndDigest.lastIndexOf(':')) : nameAndDigest;
    }

    private void runSdkEvaluation(TraceClient client) throws Exception {
        WeaveSdkScripts.result(WeaveSdkScripts.run("weave-eval.mjs", base, client));
    }
}
