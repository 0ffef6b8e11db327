package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.digest.Digests;

/**
 * The rows of {@code eval_results/query}, grouped in memory from the calls: one row per dataset row (its digest from
 * the example's row ref, else the digest of the example), under it one entry per evaluation root, under that one
 * trial per {@code predict_and_score} call; and the per-evaluation summary of the scores.
 */
final class EvalResultRows {

    static final String ROW_REF_EDGE = "/attr/rows/id/";
    static final String GENAI_SPAN_REF = "genai_span_ref";

    private final ObjectMapper json;
    private final Map<String, Row> rows = new LinkedHashMap<>();

    EvalResultRows(ObjectMapper json) {
        this.json = json;
    }

    /** A trial's evaluation root and its {@code predict_and_score} output, what sorts and filters read. */
    record TrialSource(String evaluationId, JsonNode output) {
    }

    /** A dataset row, its raw value, and its trials per evaluation root. */
    static final class Row {
        final String digest;
        JsonNode raw;
        JsonNode example = NullNode.getInstance();
        /** The table row a ref example names, once read. */
        JsonNode resolved;
        final Map<String, List<ObjectNode>> trialsByEvaluation = new LinkedHashMap<>();
        final List<TrialSource> sources = new ArrayList<>();

        Row(String digest) {
            this.digest = digest;
        }

        /** The dataset row as {@code inputs.*} reads it: the table row its ref names, else the example. */
        JsonNode inputs() {
            return resolved != null ? resolved : example;
        }
    }

    static boolean isPredictAndScore(String opName) {
        String name = EvalRunService.refName(opName, opName);
        return name.equals(EvalRunService.PREDICT_AND_SCORE_OP) || name.equals("Evaluation.predictAndScore");
    }

    /**
     * Adds a trial. {@code children} null: the trial's children were not read, so it is described by its
     * {@code predict_and_score} call alone (no predict or scorer call ids; tokens, cost and span refs of that call).
     */
    void add(CallSchema predictAndScore, List<CallSchema> children, boolean includeRaw) {
        JsonNode inputs = parse(predictAndScore.inputs());
        JsonNode example = inputs.path("example");
        String digest = rowDigest(example);
        Row row = rows.computeIfAbsent(digest, Row::new);
        if (row.example.isNull() && !example.isMissingNode()) {
            row.example = example;
        }
        if (includeRaw && row.raw == null && !example.isMissingNode() && !example.isNull()) {
            row.raw = example;
        }
        JsonNode output = parse(predictAndScore.output());
        JsonNode scores = output.path("scores").isObject() ? output.get("scores") : json.createObjectNode();
        CallSchema predict = children == null ? null : predictCall(children, inputs.path("model"));
        CallSchema usageCall = children == null ? predictAndScore : predict;
        ObjectNode trial = json.createObjectNode();
        trial.put("predict_and_score_call_id", predictAndScore.id());
        trial.put("predict_call_id", predict == null ? null : predict.id());
        // The TypeScript SDK (and older Python SDKs) name it model_output.
        JsonNode modelOutput = output.has("output") ? output.get("output") : output.path("model_output");
        trial.set("model_output", modelOutput.isMissingNode() ? NullNode.getInstance() : modelOutput);
        trial.set("scores", scores);
        putNumber(trial, "model_latency_seconds", latencySeconds(predict, output));
        Long tokens = usageCall == null ? null : totalTokens(usageCall.summary());
        putNumber(trial, "total_tokens", tokens);
        putNumber(trial, "total_cost", usageCall == null ? null : totalCost(usageCall.summary()));
        trial.set("scorer_call_ids", children == null ? json.createObjectNode() : scorerCallIds(scores, children));
        ArrayNode spanRefs = spanRefs(predict);
        trial.set(GENAI_SPAN_REF, spanRefs.isEmpty() ? spanRefs(predictAndScore) : spanRefs);
        if (trial.get(GENAI_SPAN_REF).isEmpty()) {
            trial.putNull(GENAI_SPAN_REF);
        }
        row.trialsByEvaluation.computeIfAbsent(predictAndScore.parentId(), id -> new ArrayList<>()).add(trial);
        row.sources.add(new TrialSource(predictAndScore.parentId(), output));
    }

    private static void putNumber(ObjectNode node, String field, Number value) {
        if (value == null) {
            node.putNull(field);
        } else if (value instanceof Long whole) {
            node.put(field, whole);
        } else {
            node.put(field, value.doubleValue());
        }
    }

    /**
     * The GenAI span refs a call carries in {@code attributes.weave} (the v2 prediction routes) or {@code summary.weave}
     * (the SDKs' span processors), one ref or a list; refs without both ids are dropped, duplicates kept once.
     */
    private ArrayNode spanRefs(CallSchema call) {
        ArrayNode refs = json.createArrayNode();
        if (call == null) {
            return refs;
        }
        for (JsonNode holder : List.of(parse(call.attributes()), call.summary() == null ? NullNode.getInstance() : call.summary())) {
            JsonNode value = holder.path("weave").path(GENAI_SPAN_REF);
            for (JsonNode ref : value.isArray() ? value : List.of(value)) {
                if (ref.path("trace_id").isTextual() && ref.path("span_id").isTextual()) {
                    ObjectNode clean = json.createObjectNode().put("trace_id", ref.get("trace_id").textValue())
                            .put("span_id", ref.get("span_id").textValue());
                    if (!contains(refs, clean)) {
                        refs.add(clean);
                    }
                }
            }
        }
        return refs;
    }

    private static boolean contains(ArrayNode refs, JsonNode ref) {
        for (JsonNode existing : refs) {
            if (existing.equals(ref)) {
                return true;
            }
        }
        return false;
    }

    List<Row> all() {
        return new ArrayList<>(rows.values());
    }

    /** Rows every root evaluated (when asked and more than one root). */
    static List<Row> selected(List<Row> rows, List<String> rootIds, boolean requireIntersection) {
        Set<String> roots = new HashSet<>(rootIds);
        return rows.stream()
                .filter(row -> !requireIntersection || roots.size() <= 1 || row.trialsByEvaluation.keySet().containsAll(roots))
                .toList();
    }

    /** {@code resolveRefs}: a ref example shows as the table row it names, where that was read. */
    ObjectNode rowJson(Row row, boolean includeRaw, boolean resolveRefs) {
        ObjectNode answer = json.createObjectNode();
        answer.put("row_digest", row.digest);
        JsonNode raw = resolveRefs && row.resolved != null ? row.resolved : row.raw;
        answer.set("raw_data_row", includeRaw && raw != null ? raw : NullNode.getInstance());
        ArrayNode evaluations = answer.putArray("evaluations");
        row.trialsByEvaluation.forEach((evaluation, trials) -> {
            ObjectNode entry = evaluations.addObject().put("evaluation_call_id", evaluation);
            entry.putArray("trials").addAll(trials);
        });
        return answer;
    }

    /** Trial counts and one set of statistics per scorer and leaf path of its outputs (booleans pass, numbers average). */
    ObjectNode summary(List<Row> rows, Map<String, CallSchema> roots) {
        Map<String, ObjectNode> evaluations = new LinkedHashMap<>();
        Map<String, Map<String, ObjectNode>> stats = new LinkedHashMap<>();
        for (Row row : rows) {
            row.trialsByEvaluation.forEach((evaluationId, trials) -> {
                ObjectNode evaluation = evaluations.computeIfAbsent(evaluationId, id -> evaluationSummary(id, roots.get(id)));
                Map<String, ObjectNode> scorerStats = stats.computeIfAbsent(evaluationId, id -> new LinkedHashMap<>());
                for (ObjectNode trial : trials) {
                    evaluation.put("trial_count", evaluation.get("trial_count").asInt() + 1);
                    if (trial.get("total_tokens").isNumber()) {
                        evaluation.put("predict_total_tokens", evaluation.path("predict_total_tokens").asLong(0)
                                + trial.get("total_tokens").asLong());
                    }
                    if (trial.get("total_cost").isNumber()) {
                        evaluation.put("predict_total_cost", evaluation.path("predict_total_cost").asDouble(0)
                                + trial.get("total_cost").asDouble());
                    }
                    trial.get("scores").fields().forEachRemaining(score ->
                            collect(score.getValue(), score.getKey(), new ArrayList<>(), scorerStats));
                }
            });
        }
        ObjectNode summary = json.createObjectNode();
        summary.put("row_count", rows.size());
        ArrayNode list = summary.putArray("evaluations");
        evaluations.forEach((id, evaluation) -> {
            ArrayNode scorerStats = evaluation.putArray("scorer_stats");
            stats.get(id).values().forEach(stat -> scorerStats.add(finished(stat)));
            list.add(evaluation);
        });
        return summary;
    }

    private ObjectNode evaluationSummary(String id, CallSchema root) {
        ObjectNode evaluation = json.createObjectNode();
        evaluation.put("evaluation_call_id", id);
        evaluation.put("trial_count", 0);
        evaluation.putNull("predict_total_tokens");
        evaluation.putNull("predict_total_cost");
        JsonNode inputs = root == null ? NullNode.getInstance() : parse(root.inputs());
        JsonNode evaluationRef = inputs.hasNonNull("self") ? inputs.get("self") : inputs.path("this");
        evaluation.set("evaluation_ref", evaluationRef.isMissingNode() ? NullNode.getInstance() : evaluationRef);
        evaluation.set("model_ref", inputs.path("model").isMissingNode() ? NullNode.getInstance() : inputs.get("model"));
        evaluation.put("display_name", root == null ? null : root.displayName());
        evaluation.put("trace_id", root == null ? null : root.traceId());
        evaluation.put("started_at", root == null ? null : root.startedAt());
        return evaluation;
    }

    private void collect(JsonNode value, String scorer, List<String> path, Map<String, ObjectNode> stats) {
        if (value.isBoolean() || value.isNumber()) {
            String dotted = path.isEmpty() ? null : String.join(".", path);
            ObjectNode stat = stats.computeIfAbsent(scorer + "\u0000" + dotted, key -> newStat(scorer, dotted,
                    value.isBoolean() ? "binary" : "continuous"));
            stat.put("trial_count", stat.get("trial_count").asInt() + 1);
            if (value.isBoolean()) {
                stat.put("pass_known_count", stat.get("pass_known_count").asInt() + 1);
                if (value.booleanValue()) {
                    stat.put("pass_true_count", stat.get("pass_true_count").asInt() + 1);
                }
            } else {
                int count = stat.get("numeric_count").asInt();
                double mean = stat.get("numeric_mean").isNull() ? 0.0 : stat.get("numeric_mean").asDouble();
                stat.put("numeric_count", count + 1);
                stat.put("numeric_mean", (mean * count + value.asDouble()) / (count + 1));
            }
        } else if (value.isObject()) {
            value.fields().forEachRemaining(field -> {
                List<String> deeper = new ArrayList<>(path);
                deeper.add(field.getKey());
                collect(field.getValue(), scorer, deeper, stats);
            });
        }
    }

    private ObjectNode newStat(String scorer, String path, String valueType) {
        ObjectNode stat = json.createObjectNode();
        stat.put("scorer_key", scorer);
        stat.put("path", path);
        stat.put("value_type", valueType);
        stat.put("trial_count", 0);
        stat.put("numeric_count", 0);
        stat.putNull("numeric_mean");
        stat.put("pass_true_count", 0);
        stat.put("pass_known_count", 0);
        stat.putNull("pass_rate");
        stat.putNull("pass_signal_coverage");
        return stat;
    }

    private static ObjectNode finished(ObjectNode stat) {
        int known = stat.get("pass_known_count").asInt();
        int trials = stat.get("trial_count").asInt();
        if (known > 0) {
            stat.put("pass_rate", (double) stat.get("pass_true_count").asInt() / known);
        }
        if (trials > 0) {
            stat.put("pass_signal_coverage", (double) known / trials);
        }
        return stat;
    }

    /** The digest a row ref names, else the digest of the example's canonical JSON. */
    static String rowDigest(JsonNode example) {
        if (example.isTextual()) {
            String text = example.textValue();
            int edge = text.lastIndexOf(ROW_REF_EDGE);
            if (edge >= 0 && text.indexOf('/', edge + ROW_REF_EDGE.length()) < 0) {
                return text.substring(edge + ROW_REF_EDGE.length());
            }
        }
        return Digests.canonical(example.isMissingNode() ? NullNode.getInstance() : example).digest();
    }

    /** The model's call among a trial's children: the one whose self is the model, else a predict or invoke op. */
    private CallSchema predictCall(List<CallSchema> children, JsonNode model) {
        for (CallSchema child : children) {
            if (isScore(child)) {
                continue;
            }
            JsonNode self = parse(child.inputs()).path("self");
            if (!model.isMissingNode() && self.equals(model)) {
                return child;
            }
            // A model that is an op (the TypeScript SDK's usual model) is the call of that op.
            if (model.isTextual() && child.opName().equals(model.textValue())) {
                return child;
            }
            String opName = child.opName().toLowerCase(Locale.ROOT);
            if (opName.contains("predict") || opName.contains("invoke")) {
                return child;
            }
        }
        return null;
    }

    private boolean isScore(CallSchema call) {
        JsonNode attributes = parse(call.attributes());
        return "true".equals(attributes.path("weave").path("score").asText())
                || attributes.path("_weave_eval_meta").path("score").asBoolean(false);
    }

    private ObjectNode scorerCallIds(JsonNode scores, List<CallSchema> children) {
        List<CallSchema> scorers = children.stream().filter(child -> isScore(child)
                || child.opName().toLowerCase(Locale.ROOT).contains(".score")
                || child.opName().toLowerCase(Locale.ROOT).contains("scorer")).toList();
        ObjectNode ids = json.createObjectNode();
        scores.fieldNames().forEachRemaining(key -> {
            String lower = key.toLowerCase(Locale.ROOT);
            scorers.stream().filter(call -> {
                String opName = call.opName().toLowerCase(Locale.ROOT);
                return opName.contains(lower) || lower.contains(opName);
            }).findFirst().ifPresent(call -> ids.put(key, call.id()));
        });
        return ids;
    }

    private static Double latencySeconds(CallSchema predict, JsonNode output) {
        if (predict != null && predict.startedAt() != null && predict.endedAt() != null) {
            return Duration.between(OffsetDateTime.parse(predict.startedAt()), OffsetDateTime.parse(predict.endedAt()))
                    .toNanos() / 1e9;
        }
        JsonNode mean = output.path("model_latency").path("mean");
        return mean.isNumber() ? mean.asDouble() : null;
    }

    private static Long totalTokens(ObjectNode summary) {
        JsonNode usage = summary == null ? null : summary.get("usage");
        if (usage == null || !usage.isObject()) {
            return null;
        }
        long total = 0;
        boolean found = false;
        for (JsonNode model : usage) {
            JsonNode tokens = model.path("total_tokens");
            if (tokens.isNumber()) {
                total += tokens.asLong();
                found = true;
            }
        }
        return found ? total : null;
    }

    /**
     * What the price book makes of a call's usage ({@code summary.weave.costs}, present only when the calls were read
     * with costs): the sum of every model's priced token totals; null when no model was priced.
     */
    private static Double totalCost(ObjectNode summary) {
        JsonNode costs = summary == null ? null : summary.path("weave").get("costs");
        if (costs == null || !costs.isObject() || costs.isEmpty()) {
            return null;
        }
        double total = 0;
        for (JsonNode model : costs) {
            for (String field : List.of("prompt_tokens_total_cost", "completion_tokens_total_cost",
                    "cache_read_input_tokens_total_cost", "cache_creation_input_tokens_total_cost")) {
                total += model.path(field).asDouble(0);
            }
        }
        return total;
    }

    private JsonNode parse(String stored) {
        return stored == null ? NullNode.getInstance() : StoredJson.parse(json, stored);
    }
}
