package org.llmplatform.tracing.evals;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * {@code eval_results/query}'s sorts, filters, costs, span refs and children switch, with the reference's cases
 * (tests/trace/test_evaluations.py, eval_results_query_builder): docs/tracing-service.md#evaluations-as-data.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class EvalResultsQueryTest {

    private TraceClient client;
    private String base;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("evalq");
        base = "/v2/" + client.project;
    }

    private ValidatableResponse results(Map<String, Object> body) {
        return client.post(base + "/eval_results/query", body);
    }

    private static String at(int second) {
        return "2026-01-01T00:00:" + String.format("%02d", second) + ".000Z";
    }

    /** A root with one predict_and_score call per output (the reference's _create_eval_with_scores); answers the root id. */
    private String evaluation(List<Map<String, Object>> outputs, List<Map<String, Object>> examples) {
        String root = UUID.randomUUID().toString();
        List<Map<String, Object>> starts = new ArrayList<>();
        List<Map<String, Object>> ends = new ArrayList<>();
        Map<String, Object> rootStart = client.start(root, "Evaluation.evaluate", at(0));
        rootStart.put("trace_id", root);
        starts.add(rootStart);
        for (int i = 0; i < outputs.size(); i++) {
            String id = UUID.randomUUID().toString();
            Map<String, Object> start = client.start(id, "Evaluation.predict_and_score", at(i + 1));
            start.put("trace_id", root);
            start.put("parent_id", root);
            start.put("inputs", Map.of("example", examples.get(i), "model", "model://m"));
            starts.add(start);
            Map<String, Object> end = client.end(id, at(i + 2));
            end.put("output", outputs.get(i));
            ends.add(end);
        }
        client.write(starts, ends);
        return root;
    }

    private String scored(double... accuracies) {
        List<Map<String, Object>> outputs = new ArrayList<>();
        List<Map<String, Object>> examples = new ArrayList<>();
        for (int i = 0; i < accuracies.length; i++) {
            outputs.add(Map.of("output", "answer_" + i, "scores", Map.of("accuracy", accuracies[i])));
            examples.add(Map.of("question", "q" + i, "idx", i));
        }
        return evaluation(outputs, examples);
    }

    private static Map<String, Object> gte(String field, Object value) {
        return Map.of("$expr", Map.of("$gte", List.of(Map.of("$convert", Map.of("input", Map.of("$getField", field),
                "to", "double")), Map.of("$literal", value))));
    }

    private List<Object> firstTrials(ValidatableResponse response, String path) {
        List<List<Map<String, Object>>> evaluations = response.statusCode(200).extract().path("rows.evaluations");
        return evaluations.stream().map(evaluation -> {
            Map<String, Object> trial = ((List<Map<String, Object>>) evaluation.get(0).get("trials")).get(0);
            Object value = trial;
            for (String key : path.split("\\.")) {
                value = ((Map<?, ?>) value).get(key);
            }
            return value instanceof Float single ? (Object) Double.valueOf(single.toString()) : value;
        }).toList();
    }

    private Map<String, Object> query(String root, Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        body.put("evaluation_call_ids", List.of(root));
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    @Test
    void rowsSortByAScoreEitherWayAndByRowDigestWithout() {
        String root = scored(0.3, 0.9, 0.6);
        assertEquals(List.of(0.9, 0.6, 0.3), firstTrials(results(query(root, "sort_by",
                List.of(Map.of("field", "scores.accuracy", "direction", "desc")))), "scores.accuracy"));
        assertEquals(List.of(0.3, 0.6, 0.9), firstTrials(results(query(root, "sort_by",
                List.of(Map.of("field", "scores.accuracy", "direction", "asc")))), "scores.accuracy"));
        List<String> digests = results(query(root)).statusCode(200).extract().path("rows.row_digest");
        assertEquals(digests.stream().sorted().toList(), digests);
    }

    @Test
    void outputAndInputFieldsSortNumericallyWhereTheyAreNumbers() {
        String root = evaluation(List.of(Map.of("output", Map.of("predicted", 2)), Map.of("output", Map.of("predicted", 10)),
                Map.of("output", Map.of("predicted", 1))), List.of(Map.of("x", 2), Map.of("x", 10), Map.of("x", 1)));
        assertEquals(List.of(1, 2, 10), firstTrials(results(query(root, "sort_by",
                List.of(Map.of("field", "output.output.predicted", "direction", "asc")))), "model_output.predicted"));
        List<Map<String, Object>> rows = results(query(root, "include_raw_data_rows", true, "sort_by",
                List.of(Map.of("field", "inputs.x", "direction", "desc")))).statusCode(200).extract().path("rows");
        assertEquals(List.of(10, 2, 1), rows.stream().map(row -> ((Map<?, ?>) row.get("raw_data_row")).get("x")).toList());
    }

    @Test
    void aFilterKeepsMatchingRowsAndTheSummaryCoversOnlyThem() {
        String root = scored(0.1, 0.5, 0.9, 0.7);
        ValidatableResponse filtered = results(query(root, "filters", List.of(Map.of("query", gte("scores.accuracy", 0.4))),
                "sort_by", List.of(Map.of("field", "scores.accuracy", "direction", "desc")), "include_summary", true));
        filtered.body("total_rows", equalTo(3)).body("summary.row_count", equalTo(3));
        assertEquals(List.of(0.9, 0.7, 0.5), firstTrials(filtered, "scores.accuracy"));
        List<Map<String, Object>> stats = filtered.extract().path("summary.evaluations[0].scorer_stats");
        assertEquals(0.7, ((Number) stats.get(0).get("numeric_mean")).doubleValue(), 1e-6);
        results(query(root, "filters", List.of(Map.of("query", Map.of("$expr", Map.of("$gte", List.of(
                Map.of("$getField", "scores.accuracy"), Map.of("$literal", 0.8)))))))).body("total_rows", equalTo(1));
    }

    @Test
    void filtersOfSeveralEvaluationsMatchAnyByDefaultAndAllWithAnd() {
        String a = scored(0.2, 0.8);
        String b = scored(0.9, 0.1);
        List<Map<String, Object>> filters = List.of(
                Map.of("evaluation_call_id", a, "query", gte("scores.accuracy", 0.5)),
                Map.of("evaluation_call_id", b, "query", gte("scores.accuracy", 0.5)));
        Map<String, Object> body = new HashMap<>(Map.of("evaluation_call_ids", List.of(a, b), "filters", filters));
        results(body).body("total_rows", equalTo(2));
        body.put("filter_logic_operator", "and");
        results(body).body("total_rows", equalTo(0));
        body.put("filter_logic_operator", "xor");
        results(body).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "filter_logic_operator")));
    }

    @Test
    void aDifferenceSortOrdersRowsByTheSpreadBetweenEvaluations() {
        String a = scored(0.5, 0.5, 0.5);
        String b = scored(0.6, 0.0, 0.45);
        Map<String, Object> body = new HashMap<>(Map.of("evaluation_call_ids", List.of(a, b), "sort_by",
                List.of(Map.of("field", "scores.accuracy", "direction", "desc", "mode", "difference"))));
        List<List<Map<String, Object>>> evaluations = results(body).statusCode(200).extract().path("rows.evaluations");
        List<Object> second = new ArrayList<>();
        for (List<Map<String, Object>> evaluation : evaluations) {
            Map<String, Object> ofB = evaluation.stream().filter(entry -> b.equals(entry.get("evaluation_call_id")))
                    .findFirst().orElseThrow();
            Map<String, Object> trial = ((List<Map<String, Object>>) ofB.get("trials")).get(0);
            second.add(Double.valueOf(((Map<?, ?>) trial.get("scores")).get("accuracy").toString()));
        }
        assertEquals(List.of(0.0, 0.6, 0.45), second);
    }

    @Test
    void anUnknownSortFieldIsA400AndABadDirectionA422() {
        String root = scored(0.5);
        results(query(root, "sort_by", List.of(Map.of("field", "bogus.field", "direction", "asc")))).statusCode(400)
                .body("reason", containsString("Unsupported sort field"));
        results(query(root, "sort_by", List.of(Map.of("field", "scores.accuracy", "direction", "up")))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "sort_by", 0, "direction")));
        results(query(root, "filters", List.of(Map.of("query", gte("summary.x", 1))))).statusCode(400)
                .body("reason", containsString("Unsupported eval results field"));
    }

    @Test
    void costsPriceThePredictCallOnlyAndSumPerEvaluation() {
        Map<String, Object> price = new LinkedHashMap<>();
        price.put("prompt_token_cost", 0.001);
        price.put("completion_token_cost", 0.002);
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("test-llm", price)))
                .statusCode(200);
        String root = UUID.randomUUID().toString();
        List<Map<String, Object>> starts = new ArrayList<>();
        List<Map<String, Object>> ends = new ArrayList<>();
        Map<String, Object> rootStart = client.start(root, "Evaluation.evaluate", at(0));
        rootStart.put("trace_id", root);
        starts.add(rootStart);
        for (int i = 0; i < 2; i++) {
            String pas = UUID.randomUUID().toString();
            String predict = UUID.randomUUID().toString();
            String scorer = UUID.randomUUID().toString();
            Map<String, Object> pasStart = client.start(pas, "Evaluation.predict_and_score", at(1 + i));
            pasStart.putAll(Map.of("trace_id", root, "parent_id", root, "inputs", Map.of("example", Map.of("idx", i),
                    "model", "model://m")));
            Map<String, Object> predictStart = client.start(predict, "Model.predict", at(1 + i));
            predictStart.putAll(Map.of("trace_id", root, "parent_id", pas, "inputs", Map.of("self", "model://m"),
                    "attributes", Map.of("weave", Map.of("genai_span_ref", Map.of("trace_id", "t" + i, "span_id", "s")))));
            Map<String, Object> scorerStart = client.start(scorer, "my_scorer.score", at(2 + i));
            scorerStart.putAll(Map.of("trace_id", root, "parent_id", pas));
            starts.addAll(List.of(pasStart, predictStart, scorerStart));
            Map<String, Object> predictEnd = client.end(predict, at(3 + i));
            predictEnd.put("summary", Map.of("usage", Map.of("test-llm", Map.of("prompt_tokens", 100,
                    "completion_tokens", 50, "total_tokens", 150))));
            Map<String, Object> scorerEnd = client.end(scorer, at(4 + i));
            scorerEnd.put("summary", Map.of("usage", Map.of("test-llm", Map.of("prompt_tokens", 1000,
                    "completion_tokens", 1000, "total_tokens", 2000))));
            Map<String, Object> pasEnd = client.end(pas, at(5 + i));
            pasEnd.put("output", Map.of("output", "a", "scores", Map.of("my_scorer", 1)));
            ends.addAll(List.of(predictEnd, scorerEnd, pasEnd));
        }
        client.write(starts, ends);

        ValidatableResponse withCosts = results(query(root, "include_costs", true, "include_summary", true)).statusCode(200);
        assertEquals(List.of(0.2, 0.2), firstTrials(withCosts, "total_cost"));
        assertEquals(List.of(150, 150), firstTrials(withCosts, "total_tokens"));
        assertEquals(0.4, (float) withCosts.extract().path("summary.evaluations[0].predict_total_cost"), 1e-6);
        withCosts.body("summary.evaluations[0].predict_total_tokens", equalTo(300));
        List<Object> spanRefs = firstTrials(withCosts, "genai_span_ref");
        assertEquals(List.of("s"), ((List<Map<String, Object>>) spanRefs.get(0)).stream().map(ref -> ref.get("span_id")).toList());
        assertEquals(Arrays.asList(null, null), firstTrials(results(query(root)), "total_cost"));
    }

    @Test
    void withoutChildrenATrialIsDescribedByItsPredictAndScoreCallAlone() {
        String model = "weave:///" + client.project + "/object/m:abc";
        String scorer = "weave:///" + client.project + "/object/acc:def";
        String run = client.post(base + "/evaluation_runs", Map.of("evaluation", "weave:///" + client.project
                + "/object/e:1", "model", model)).statusCode(200).extract().path("evaluation_run_id");
        String prediction = client.post(base + "/predictions", Map.of("model", model, "inputs", Map.of("x", 1), "output",
                "result", "evaluation_run_id", run, "genai_span_ref", List.of(Map.of("trace_id", "agent-trace-1",
                        "span_id", "span-1")))).statusCode(200).extract().path("prediction_id");
        client.post(base + "/scores", Map.of("prediction_id", prediction, "scorer", scorer, "value", 0.8,
                "evaluation_run_id", run)).statusCode(200);
        client.post(base + "/predictions/" + prediction + "/finish", Map.of()).statusCode(200);

        ValidatableResponse with = results(query(run)).statusCode(200);
        assertEquals(List.of(prediction), firstTrials(with, "predict_call_id"));
        ValidatableResponse without = results(query(run, "include_predict_and_score_children", false)).statusCode(200);
        assertEquals(List.of(Map.of()), firstTrials(without, "scorer_call_ids"));
        assertEquals(List.of(0.8), firstTrials(without, "scores.acc"));
        assertNull(firstTrials(without, "predict_call_id").get(0));
        assertEquals(List.of(List.of(Map.of("trace_id", "agent-trace-1", "span_id", "span-1"))),
                firstTrials(without, "genai_span_ref"));
        client.post(base + "/predictions", Map.of("model", model, "inputs", Map.of(), "output", 1,
                "genai_span_ref", List.of(Map.of("trace_id", "t")))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "genai_span_ref", 0, "span_id")));
    }
}
