package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.calls.CallQueryService;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.calls.CallService;
import org.llmplatform.tracing.calls.CallsQuery;
import org.llmplatform.tracing.calls.EndedCall;
import org.llmplatform.tracing.calls.StartedCall;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationRunRead;
import org.llmplatform.tracing.evals.EvalEnvelopes.GenAiSpanRef;
import org.llmplatform.tracing.evals.EvalEnvelopes.PredictionCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.PredictionRead;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScoreCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScoreRead;
import org.llmplatform.tracing.feedback.FeedbackService;
import org.llmplatform.tracing.feedback.NewFeedback;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.refs.ParsedRef;

/**
 * Evaluation runs, predictions and scores of the v2 routes, written as the calls the SDK's {@code Evaluation} writes:
 * a run is an {@code Evaluation.evaluate} root, a prediction in a run a {@code <model>.predict} call under an
 * {@code Evaluation.predict_and_score} child of the run, a score a {@code <scorer>.score} call beside the prediction;
 * each is marked in {@code attributes.weave} so that the list routes find them (docs/tracing-service.md#evaluations-as-data).
 */
@ApplicationScoped
public class EvalRunService {

    static final String RUN_OP = "Evaluation.evaluate";
    static final String PREDICT_AND_SCORE_OP = "Evaluation.predict_and_score";
    static final String SUMMARIZE_OP = "Evaluation.summarize";
    static final String RUNNABLE_FEEDBACK_PREFIX = "wandb.runnable.";

    private final EvalObjectService objects;
    private final CallService calls;
    private final CallQueryService queries;
    private final FeedbackService feedback;
    private final ObjectMapper json;

    public EvalRunService(EvalObjectService objects, CallService calls, CallQueryService queries, FeedbackService feedback,
            ObjectMapper json) {
        this.objects = objects;
        this.calls = calls;
        this.queries = queries;
        this.feedback = feedback;
        this.json = json;
    }

    // ---- evaluation runs

    /** {@code sourceRunId}: the run this one rescored (provenance only), kept in {@code attributes.weave}. */
    public Uni<String> createRun(String projectId, String evaluation, String model, String sourceRunId) {
        String runId = newId();
        ObjectNode marks = weaveAttributes();
        ObjectNode weave = (ObjectNode) marks.get("weave");
        weave.put("evaluation_run", "true");
        weave.put("evaluation", evaluation);
        weave.put("model", model);
        if (sourceRunId != null) {
            weave.put("source_evaluation_run_id", sourceRunId);
        }
        ObjectNode inputs = json.createObjectNode().put("self", evaluation).put("model", model);
        return start(projectId, runId, runId, null, RUN_OP, EvalObjectService.EVALUATE_SOURCE, marks, inputs)
                .replaceWith(runId);
    }

    /**
     * Ends the run as the reference does: its output is the mean of each scorer's floating-point scores and of the
     * numeric model outputs over its {@code predict_and_score} children, written first by an
     * {@code Evaluation.summarize} child; the given summary becomes the run's summary.
     */
    public Uni<Void> finishRun(String projectId, String runId, ObjectNode summary) {
        return read(projectId, runId, "Evaluation run").chain(run -> queries.stream(CallsQuery.in(projectId)
                .filter(parentOnly(runId)).build()).collect().asList().chain(children -> {
                    ObjectNode output = runOutput(children);
                    String summarizeId = newId();
                    ObjectNode inputs = json.createObjectNode();
                    inputs.set("self", evaluationOf(run));
                    return start(projectId, summarizeId, runId, runId, SUMMARIZE_OP, EvalObjectService.EVALUATION_SUMMARIZE_SOURCE,
                            json.createObjectNode(), inputs)
                            .chain(() -> end(projectId, summarizeId, output, json.createObjectNode()))
                            .chain(() -> end(projectId, runId, output, summary == null ? json.createObjectNode() : summary));
                }));
    }

    /**
     * The reference's means: a score counts when it is a float (a JSON number with a fraction or exponent, as Python
     * reads it; not an integer or a boolean), a model output when it is a number or a boolean.
     */
    private ObjectNode runOutput(List<CallSchema> children) {
        Map<String, List<Double>> scoresByScorer = new LinkedHashMap<>();
        List<Double> outputs = new ArrayList<>();
        for (CallSchema child : children) {
            JsonNode output = child.output() == null ? NullNode.getInstance() : parse(child.output());
            if (!opName(child.opName()).equals(PREDICT_AND_SCORE_OP) || !output.isObject()) {
                continue;
            }
            JsonNode modelOutput = output.path("output");
            if (modelOutput.isNumber() || modelOutput.isBoolean()) {
                outputs.add(modelOutput.isBoolean() ? (modelOutput.booleanValue() ? 1.0 : 0.0) : modelOutput.doubleValue());
            }
            output.path("scores").properties().forEach(score -> {
                List<Double> values = scoresByScorer.computeIfAbsent(score.getKey(), name -> new ArrayList<>());
                if (score.getValue().isFloatingPointNumber()) {
                    values.add(score.getValue().doubleValue());
                }
            });
        }
        ObjectNode means = json.createObjectNode();
        scoresByScorer.forEach((scorer, values) -> {
            if (!values.isEmpty()) {
                means.putObject(scorer).put("mean", mean(values));
            }
        });
        if (!outputs.isEmpty()) {
            means.putObject("output").put("mean", mean(outputs));
        }
        return means;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
    }

    public Uni<EvaluationRunRead> readRun(String projectId, String runId) {
        return read(projectId, runId, "Evaluation run").map(this::runAnswer);
    }

    public Multi<EvaluationRunRead> listRuns(String projectId, List<String> evaluations, List<String> models,
            List<String> runIds, Long limit, Long offset) {
        List<JsonNode> conditions = new ArrayList<>();
        conditions.add(marked("evaluation_run", "true"));
        if (evaluations != null && !evaluations.isEmpty()) {
            conditions.add(oneOf("attributes.weave.evaluation", evaluations));
        }
        if (models != null && !models.isEmpty()) {
            conditions.add(oneOf("attributes.weave.model", models));
        }
        if (runIds != null && !runIds.isEmpty()) {
            conditions.add(oneOf("id", runIds));
        }
        return query(projectId, conditions, null, limit, offset).map(this::runAnswer);
    }

    private EvaluationRunRead runAnswer(CallSchema call) {
        JsonNode weave = attributes(call).path("weave");
        return new EvaluationRunRead(call.id(), weave.path("evaluation").asText(""), weave.path("model").asText(""),
                status(call), call.startedAt(), call.endedAt(), summaryWithoutDerived(call),
                weave.path("source_evaluation_run_id").isTextual() ? weave.get("source_evaluation_run_id").asText() : null);
    }

    // ---- predictions

    public Uni<String> createPrediction(String projectId, PredictionCreateBody body) {
        String predictionId = newId();
        String predictOp = refName(body.model(), "Model") + ".predict";
        ObjectNode marks = weaveAttributes();
        ObjectNode weave = (ObjectNode) marks.get("weave");
        weave.put("prediction", "true");
        weave.put("model", body.model());
        if (body.evaluationRunId() != null) {
            weave.put("evaluation_run_id", body.evaluationRunId());
        }
        markSpanRefs(weave, body.genaiSpanRef());
        ObjectNode inputs = json.createObjectNode().put("self", body.model());
        inputs.set("inputs", body.inputs());
        JsonNode output = body.output() == null ? NullNode.getInstance() : body.output();
        Uni<String[]> parent = body.evaluationRunId() == null
                ? Uni.createFrom().item(new String[] {predictionId, null})
                : predictAndScore(projectId, body, predictionId);
        return parent.chain(traceAndParent -> start(projectId, predictionId, traceAndParent[0], traceAndParent[1], predictOp,
                        EvalObjectService.MODEL_PREDICT_SOURCE, marks, inputs))
                .chain(() -> end(projectId, predictionId, output, json.createObjectNode()))
                .replaceWith(predictionId);
    }

    /** Starts the run's {@code predict_and_score} call the prediction goes under; answers {trace id, parent id}. */
    private Uni<String[]> predictAndScore(String projectId, PredictionCreateBody body, String predictionId) {
        String runId = body.evaluationRunId();
        String callId = newId();
        return read(projectId, runId, "Evaluation run").chain(run -> {
            ObjectNode marks = weaveAttributes();
            ((ObjectNode) marks.get("weave")).put("predict_call_id", predictionId);
            markSpanRefs((ObjectNode) marks.get("weave"), body.genaiSpanRef());
            ObjectNode inputs = json.createObjectNode();
            inputs.set("self", evaluationOf(run));
            inputs.put("model", body.model());
            inputs.set("example", body.inputs());
            return start(projectId, callId, runId, runId, PREDICT_AND_SCORE_OP, EvalObjectService.PREDICT_AND_SCORE_SOURCE,
                    marks, inputs);
        }).replaceWith(new String[] {runId, callId});
    }

    /**
     * The prediction was ended when it was created; in a run, its {@code predict_and_score} call ends now, with the
     * prediction's output, the scores of its score calls by scorer name, and the model latency.
     */
    public Uni<Void> finishPrediction(String projectId, String predictionId) {
        return read(projectId, predictionId, "Prediction").chain(prediction -> {
            if (prediction.parentId() == null) {
                return Uni.createFrom().voidItem();
            }
            return queries.read(projectId, prediction.parentId(), false, false, false).chain(parent -> {
                if (parent == null || !opName(parent.opName()).equals(PREDICT_AND_SCORE_OP)) {
                    return Uni.createFrom().voidItem();
                }
                return query(projectId, List.of(marked("score", "true")), parentOnly(parent.id()), null, null)
                        .collect().asList().chain(scores -> end(projectId, parent.id(),
                                predictAndScoreOutput(prediction, scores), json.createObjectNode()));
            });
        });
    }

    private ObjectNode predictAndScoreOutput(CallSchema prediction, List<CallSchema> scores) {
        ObjectNode output = json.createObjectNode();
        output.set("output", parse(prediction.output()));
        ObjectNode byScorer = output.putObject("scores");
        for (CallSchema score : scores) {
            if (score.output() == null) {
                continue;
            }
            String scorer = attributes(score).path("weave").path("scorer").asText("");
            byScorer.set(scorer.isEmpty() ? "unknown" : refName(scorer, "unknown"), parse(score.output()));
        }
        if (prediction.startedAt() != null && prediction.endedAt() != null) {
            Duration latency = Duration.between(OffsetDateTime.parse(prediction.startedAt()),
                    OffsetDateTime.parse(prediction.endedAt()));
            output.putObject("model_latency").put("mean", latency.toNanos() / 1e9);
        } else {
            output.putNull("model_latency");
        }
        return output;
    }

    public Uni<PredictionRead> readPrediction(String projectId, String predictionId) {
        return read(projectId, predictionId, "Prediction").map(this::predictionAnswer);
    }

    public Multi<PredictionRead> listPredictions(String projectId, String runId, Long limit, Long offset) {
        List<JsonNode> conditions = new ArrayList<>();
        conditions.add(marked("prediction", "true"));
        if (runId != null) {
            conditions.add(marked("evaluation_run_id", runId));
        }
        return query(projectId, conditions, null, limit, offset).map(this::predictionAnswer);
    }

    private PredictionRead predictionAnswer(CallSchema call) {
        JsonNode weave = attributes(call).path("weave");
        JsonNode inputs = inputs(call).path("inputs");
        return new PredictionRead(call.id(), weave.path("model").asText(""),
                inputs.isMissingNode() ? json.createObjectNode() : inputs, parse(call.output()),
                weave.path("evaluation_run_id").isTextual() ? weave.get("evaluation_run_id").asText() : null, call.svcUserId());
    }

    /**
     * The prediction's GenAI span refs, on its call and its {@code predict_and_score} call, where {@code eval_results}
     * reads them (a query without the trials' children sees only the latter).
     */
    private void markSpanRefs(ObjectNode weave, List<GenAiSpanRef> refs) {
        if (refs != null && !refs.isEmpty()) {
            ArrayNode list = weave.putArray(EvalResultRows.GENAI_SPAN_REF);
            refs.forEach(ref -> list.addObject().put("trace_id", ref.traceId()).put("span_id", ref.spanId()));
        }
    }

    // ---- scores

    public Uni<String> createScore(String projectId, ScoreCreateBody body) {
        ParsedRef scorerRef = ParsedRef.parse(body.scorer()).filter(ref -> ref.kind() == ParsedRef.Kind.OBJECT)
                .orElseThrow(() -> ApiException.invalidField("value_error", List.of("body", "scorer"),
                        "Invalid scorer ref: " + body.scorer(), body.scorer()));
        String scoreId = newId();
        return queries.read(projectId, body.predictionId(), false, false, false).chain(prediction -> {
            JsonNode predictionInputs = prediction == null ? json.createObjectNode() : inputs(prediction).path("inputs");
            ObjectNode marks = weaveAttributes();
            ObjectNode weave = (ObjectNode) marks.get("weave");
            weave.put("score", "true");
            weave.put("prediction_id", body.predictionId());
            weave.put("scorer", body.scorer());
            String traceId = scoreId;
            String parentId = null;
            if (body.evaluationRunId() != null) {
                weave.put("evaluation_run_id", body.evaluationRunId());
                traceId = body.evaluationRunId();
                parentId = prediction != null && prediction.parentId() != null ? prediction.parentId() : body.evaluationRunId();
            }
            ObjectNode inputs = json.createObjectNode().put("self", body.scorer());
            inputs.set("inputs", predictionInputs.isMissingNode() ? json.createObjectNode() : predictionInputs);
            inputs.set("output", prediction == null ? NullNode.getInstance() : parse(prediction.output()));
            JsonNode value = body.value() == null ? NullNode.getInstance() : body.value();
            return start(projectId, scoreId, traceId, parentId, scorerRef.name() + ".score",
                    EvalObjectService.SCORER_SCORE_SOURCE, marks, inputs)
                    .chain(() -> end(projectId, scoreId, value, json.createObjectNode()))
                    .chain(() -> feedback.create(new NewFeedback(null, projectId,
                            "weave:///" + projectId + "/call/" + body.predictionId(), null,
                            RUNNABLE_FEEDBACK_PREFIX + scorerRef.name(), json.createObjectNode().set("output", value),
                            null, body.scorer(), null, null, null, null)));
        }).replaceWith(scoreId);
    }

    public Uni<ScoreRead> readScore(String projectId, String scoreId) {
        return read(projectId, scoreId, "Score").map(this::scoreAnswer);
    }

    public Multi<ScoreRead> listScores(String projectId, String runId, Long limit, Long offset) {
        List<JsonNode> conditions = new ArrayList<>();
        conditions.add(marked("score", "true"));
        if (runId != null) {
            conditions.add(marked("evaluation_run_id", runId));
        }
        return query(projectId, conditions, null, limit, offset).map(this::scoreAnswer);
    }

    private ScoreRead scoreAnswer(CallSchema call) {
        JsonNode weave = attributes(call).path("weave");
        JsonNode value = call.output() == null ? json.getNodeFactory().numberNode(0.0) : parse(call.output());
        return new ScoreRead(call.id(), weave.path("scorer").asText(""), value,
                weave.path("evaluation_run_id").isTextual() ? weave.get("evaluation_run_id").asText() : null, call.svcUserId());
    }

    // ---- the calls underneath

    /** Deletes the calls (and their descendants, as {@code calls/delete} does); answers how many ids were deleted. */
    public Uni<Long> delete(String projectId, List<String> ids) {
        return calls.delete(projectId, ids);
    }

    private Uni<Void> start(String projectId, String id, String traceId, String parentId, String opName, String source,
            ObjectNode attributes, ObjectNode inputs) {
        return objects.publishOp(projectId, opName, source).chain(op -> calls.start(new StartedCall(projectId, id,
                EvalObjectService.ref(projectId, "op", opName, op.digest()), null, traceId, parentId, null, null, now(),
                attributes, inputs, null, null, null))).replaceWithVoid();
    }

    private Uni<Void> end(String projectId, String id, JsonNode output, ObjectNode summary) {
        return calls.end(new EndedCall(projectId, id, now(), null, output, summary, null));
    }

    private Uni<CallSchema> read(String projectId, String id, String what) {
        return queries.read(projectId, id, false, false, false).map(call -> {
            if (call == null) {
                throw ApiException.notFound(what + " " + id + " not found");
            }
            return call;
        });
    }

    private Multi<CallSchema> query(String projectId, List<JsonNode> conditions, CallFilter filter, Long limit, Long offset) {
        JsonNode expr;
        if (conditions.size() == 1) {
            expr = conditions.get(0);
        } else {
            ObjectNode and = json.createObjectNode();
            ArrayNode all = and.putArray("$and");
            conditions.forEach(all::add);
            expr = and;
        }
        ObjectNode query = json.createObjectNode();
        query.set("$expr", expr);
        CallsQuery.Builder builder = CallsQuery.in(projectId).query(ExprParser.parseOptional(query)).page(Page.of(limit, offset));
        if (filter != null) {
            builder.filter(filter);
        }
        return queries.stream(builder.build());
    }

    private static CallFilter parentOnly(String parentId) {
        return new CallFilter(null, null, null, List.of(parentId), null, null, null, null, null, null, null);
    }

    private JsonNode marked(String key, String value) {
        return oneOf("attributes.weave." + key, List.of(value), "$eq");
    }

    private JsonNode oneOf(String field, List<String> values) {
        return oneOf(field, values, "$in");
    }

    private JsonNode oneOf(String field, List<String> values, String operator) {
        ObjectNode condition = json.createObjectNode();
        ArrayNode operands = condition.putArray(operator);
        operands.addObject().put("$getField", field);
        if (operator.equals("$eq")) {
            operands.addObject().put("$literal", values.get(0));
        } else {
            ArrayNode literals = operands.addArray();
            values.forEach(value -> literals.addObject().put("$literal", value));
        }
        return condition;
    }

    private ObjectNode weaveAttributes() {
        ObjectNode attributes = json.createObjectNode();
        attributes.putObject("weave");
        return attributes;
    }

    private JsonNode attributes(CallSchema call) {
        return parse(call.attributes());
    }

    /** The run's evaluation ref (its {@code self} input), null when it has none. */
    private JsonNode evaluationOf(CallSchema run) {
        JsonNode self = inputs(run).path("self");
        return self.isMissingNode() ? NullNode.getInstance() : self;
    }

    private JsonNode inputs(CallSchema call) {
        return parse(call.inputs());
    }

    private JsonNode parse(String stored) {
        return stored == null ? NullNode.getInstance() : StoredJson.parse(json, stored);
    }

    /** The summary as the run was finished with, without the {@code weave} block every read derives. */
    private JsonNode summaryWithoutDerived(CallSchema call) {
        if (call.summary() == null) {
            return null;
        }
        ObjectNode summary = call.summary().deepCopy();
        summary.remove("weave");
        return summary;
    }

    private static String status(CallSchema call) {
        return call.summary() == null ? null : call.summary().path("weave").path("status").asText(null);
    }

    /** The name of an object or op ref ({@code weave:///e/p/object/name:digest}), else the fallback. */
    static String refName(String ref, String fallback) {
        return ParsedRef.parse(ref).filter(ParsedRef::isObjectOrOp).map(ParsedRef::name).orElse(fallback);
    }

    /** The op name of an op ref, or the name itself. */
    private static String opName(String opName) {
        return refName(opName, opName);
    }

    private static String newId() {
        return Uuids.v7().toString();
    }

    private static String now() {
        return Timestamps.format(OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS));
    }
}
