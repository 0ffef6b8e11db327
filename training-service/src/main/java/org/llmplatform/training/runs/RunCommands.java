package org.llmplatform.training.runs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.support.error.ApiException;

/**
 * Reads the body of a run command as ART's client sends it (the public wire of {@code art.serverless.client}: the command
 * without {@code run_id}; a forward batch is a {@code token_matrix} batch of dense or span-encoded rows) into a
 * {@link RunCommand}, naming the field of the first thing it cannot take (422 with {@code loc}).
 */
public final class RunCommands {

    public static final List<String> KINDS = List.of("forward", "forward_backward", "optim_step", "save_weights_for_sampler", "save_state",
            "load_state");

    /** The losses the embedded trainer computes; {@code dpo} needs pairs of matrices and a GPU worker. */
    static final Set<String> LOSSES = Set.of("cross_entropy", "importance_sampling", "cispo");

    /** The key under which admission records the model a sampler save publishes to (the client sends an alias). */
    static final String SERVED_MODEL_ID = "served_model_id";

    private final List<ValidationIssue> issues = new ArrayList<>();

    private RunCommands() {
    }

    /** The request id and sequence id every command carries. */
    public record Envelope(String requestId, long sequenceId) {
    }

    public static Envelope envelope(JsonNode body) {
        RunCommands reader = new RunCommands();
        if (body == null || !body.isObject()) {
            throw ApiException.invalidField("model_attributes_type", List.of("body"), "Input should be an object", null);
        }
        String requestId = reader.text(body, "request_id", List.of("body"), true, 255);
        long sequenceId = reader.integer(body, "sequence_id", List.of("body"), true, 0);
        reader.throwIfAny();
        return new Envelope(requestId, sequenceId);
    }

    public static RunCommand parse(String kind, JsonNode body) {
        RunCommands reader = new RunCommands();
        List<Object> at = List.of("body");
        RunCommand command = switch (kind) {
            case "forward" -> reader.forward(body, false);
            case "forward_backward" -> reader.forward(body, true);
            case "optim_step" -> reader.optimStep(body);
            case "save_weights_for_sampler" -> reader.saveSampler(body);
            case "save_state" -> new RunCommand.SaveState(reader.text(body, "checkpoint_name", at, true, 255),
                    reader.bool(body, "overwrite", at, false));
            case "load_state" -> reader.loadState(body);
            default -> throw ApiException.notFound("Unknown run command '" + kind + "'");
        };
        reader.throwIfAny();
        return command;
    }

    private RunCommand forward(JsonNode body, boolean backward) {
        List<Object> at = List.of("body");
        JsonNode loss = object(body, "loss", at);
        String lossName = loss == null ? null : text(loss, "name", path(at, "loss"), true, 64);
        if (lossName != null && !LOSSES.contains(lossName)) {
            issue("literal_error", path(at, "loss", "name"), "Input should be 'cross_entropy', 'importance_sampling' or 'cispo' "
                    + "(the losses the embedded trainer computes)", lossName);
        }
        double clipLow = loss == null ? 0 : number(loss, "clip_low_threshold", path(at, "loss"), 0.0);
        double clipHigh = loss == null ? 4 : number(loss, "clip_high_threshold", path(at, "loss"), 4.0);
        JsonNode batch = object(body, "batch", at);
        List<RunCommand.TokenSequence> sequences = new ArrayList<>();
        if (batch != null) {
            String batchKind = text(batch, "kind", path(at, "batch"), true, 64);
            if (batchKind != null && !batchKind.equals("token_matrix")) {
                issue("literal_error", path(at, "batch", "kind"), "Input should be 'token_matrix' (input objects and captured packings "
                        + "are references to another service's storage)", batchKind);
            }
            JsonNode matrices = batch.get("matrices");
            if (matrices == null || !matrices.isArray() || matrices.isEmpty()) {
                issue(matrices == null ? "missing" : "too_short", path(at, "batch", "matrices"), "Field required: at least one matrix", null);
            } else {
                for (int i = 0; i < matrices.size(); i++) {
                    RunCommand.TokenSequence sequence = matrix(matrices.get(i), path(at, "batch", "matrices", i), lossName);
                    if (sequence != null) {
                        sequences.add(sequence);
                    }
                }
            }
        }
        boolean returnTokenLogprobs = bool(body, "return_token_logprobs", at, true);
        return new RunCommand.Forward(backward, lossName, clipLow, clipHigh, sequences, returnTokenLogprobs);
    }

    private RunCommand.TokenSequence matrix(JsonNode matrix, List<Object> at, String lossName) {
        if (matrix == null || !matrix.isObject()) {
            issue("model_attributes_type", at, "Input should be an object", null);
            return null;
        }
        String matrixId = text(matrix, "matrix_id", at, true, 255);
        JsonNode rows = matrix.get("rows");
        if (rows == null || !rows.isArray() || rows.isEmpty()) {
            issue("missing", path(at, "rows"), "Field required: at least a token_ids row", null);
            return null;
        }
        Map<String, double[]> values = new HashMap<>();
        int length = -1;
        for (int r = 0; r < rows.size(); r++) {
            List<Object> rowAt = path(at, "rows", r);
            JsonNode row = rows.get(r);
            String name = text(row, "name", rowAt, true, 64);
            double[] dense = denseRow(row, rowAt);
            if (name == null || dense == null) {
                continue;
            }
            if (values.put(name, dense) != null) {
                issue("value_error", path(rowAt, "name"), "Row names must be unique within a matrix", name);
            }
            if (length >= 0 && dense.length != length) {
                issue("value_error", path(rowAt, "shape"), "All rows must share the token_ids axis", dense.length);
            }
            length = Math.max(length, dense.length);
        }
        List<String> required = "cross_entropy".equals(lossName) ? List.of("token_ids", "target_token_ids", "loss_weights")
                : List.of("token_ids", "target_token_ids", "advantages", "behavior_logprobs");
        for (String name : required) {
            if (!values.containsKey(name)) {
                issue("missing", path(at, "rows"), "Matrix '" + matrixId + "' needs a " + name + " row for " + lossName, null);
            }
        }
        if (!issues.isEmpty()) {
            return null;
        }
        return new RunCommand.TokenSequence(matrixId, ints(values.get("token_ids")), ints(values.get("target_token_ids")),
                values.get("loss_weights"), values.get("advantages"), values.get("behavior_logprobs"));
    }

    /** A row's values, one per position: shape [T] or [T, 1] (the embedded trainer scores one target per position). */
    private double[] denseRow(JsonNode row, List<Object> at) {
        JsonNode shape = row.get("shape");
        if (shape == null || !shape.isArray() || shape.isEmpty() || shape.size() > 2 || !shape.get(0).canConvertToInt()
                || shape.get(0).asInt() < 1) {
            issue("value_error", path(at, "shape"), "Input should be [T] or [T, K] with T at least 1", shape);
            return null;
        }
        if (shape.size() == 2 && shape.get(1).asInt() != 1) {
            issue("value_error", path(at, "shape"), "The embedded trainer takes one value per position (K = 1)", shape);
            return null;
        }
        int length = shape.get(0).asInt();
        JsonNode values = row.get("values");
        String encoding = values == null ? null : values.path("encoding").asText(null);
        if ("dense".equals(encoding)) {
            JsonNode data = values.get("data");
            if (data == null || !data.isArray() || data.size() != length) {
                issue("value_error", path(at, "values", "data"), "Dense row value count does not match shape", null);
                return null;
            }
            double[] out = new double[length];
            for (int i = 0; i < length; i++) {
                Double value = scalar(data.get(i));
                if (value == null) {
                    issue("float_type", path(at, "values", "data", i), "Input should be a finite number", data.get(i));
                    return null;
                }
                out[i] = value;
            }
            return out;
        }
        if ("spans".equals(encoding)) {
            Double fill = scalar(values.get("default"));
            if (fill == null) {
                issue("float_type", path(at, "values", "default"), "Input should be a finite number", values.get("default"));
                return null;
            }
            double[] out = new double[length];
            java.util.Arrays.fill(out, fill);
            JsonNode spans = values.path("spans");
            for (int s = 0; s < spans.size(); s++) {
                JsonNode span = spans.get(s);
                int start = span.path("start").asInt(-1);
                int end = span.path("end").asInt(-1);
                Double value = scalar(span.get("value"));
                if (start < 0 || end <= start || end > length || value == null) {
                    issue("value_error", path(at, "values", "spans", s), "A span needs 0 <= start < end <= T and a number", span);
                    return null;
                }
                java.util.Arrays.fill(out, start, end, value);
            }
            return out;
        }
        issue("union_tag_invalid", path(at, "values", "encoding"), "Input should be 'dense' or 'spans'", encoding);
        return null;
    }

    /** A finite number, a boolean (a bool row), or a one-element tuple of one. */
    private static Double scalar(JsonNode node) {
        if (node != null && node.isArray() && node.size() == 1) {
            node = node.get(0);
        }
        if (node == null) {
            return null;
        }
        if (node.isBoolean()) {
            return node.asBoolean() ? 1.0 : 0.0;
        }
        if (!node.isNumber() || !Double.isFinite(node.asDouble())) {
            return null;
        }
        return node.asDouble();
    }

    private static int[] ints(double[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (int) values[i];
        }
        return out;
    }

    private RunCommand optimStep(JsonNode body) {
        List<Object> at = List.of("body");
        JsonNode optimizer = object(body, "optimizer", at);
        if (optimizer == null) {
            return null;
        }
        List<Object> o = path(at, "optimizer");
        if (!optimizer.has("learning_rate")) {
            issue("missing", path(o, "learning_rate"), "Field required", null);
        }
        double learningRate = number(optimizer, "learning_rate", o, 0.0);
        double beta1 = number(optimizer, "beta1", o, 0.9);
        double beta2 = number(optimizer, "beta2", o, 0.99);
        double eps = number(optimizer, "eps", o, 1e-13);
        double weightDecay = number(optimizer, "weight_decay", o, 0.1);
        double gradClipNorm = number(optimizer, "grad_clip_norm", o, 0.1);
        if (learningRate < 0) {
            issue("greater_than_equal", path(o, "learning_rate"), "Input should be greater than or equal to 0", learningRate);
        }
        if (beta1 < 0 || beta1 >= 1) {
            issue("less_than", path(o, "beta1"), "Input should be in [0, 1)", beta1);
        }
        if (beta2 < 0 || beta2 >= 1) {
            issue("less_than", path(o, "beta2"), "Input should be in [0, 1)", beta2);
        }
        if (eps <= 0) {
            issue("greater_than", path(o, "eps"), "Input should be greater than 0", eps);
        }
        if (weightDecay < 0) {
            issue("greater_than_equal", path(o, "weight_decay"), "Input should be greater than or equal to 0", weightDecay);
        }
        if (gradClipNorm < 0) {
            issue("greater_than_equal", path(o, "grad_clip_norm"), "Input should be greater than or equal to 0", gradClipNorm);
        }
        return new RunCommand.OptimStep(learningRate, beta1, beta2, eps, weightDecay, gradClipNorm);
    }

    private RunCommand saveSampler(JsonNode body) {
        List<Object> at = List.of("body");
        String name = text(body, "checkpoint_name", at, true, 255);
        JsonNode publication = object(body, "publication", at);
        String target = null;
        String alias = null;
        if (publication != null) {
            target = text(publication, "target", path(at, "publication"), true, 64);
            if (target != null && !target.equals("active") && !target.equals("saved_generation")) {
                issue("literal_error", path(at, "publication", "target"), "Input should be 'active' or 'saved_generation'", target);
            }
            alias = text(publication, "model_alias", path(at, "publication"), true, 255);
        }
        JsonNode served = body.get(SERVED_MODEL_ID);
        return new RunCommand.SaveWeightsForSampler(name, target, alias, served == null ? null : UUID.fromString(served.asText()));
    }

    private RunCommand loadState(JsonNode body) {
        List<Object> at = List.of("body");
        JsonNode source = object(body, "source", at);
        String checkpointId = null;
        if (source != null) {
            String kind = text(source, "kind", path(at, "source"), true, 64);
            if ("wandb_artifact".equals(kind)) {
                issue("literal_error", path(at, "source", "kind"), "Input should be 'service_checkpoint': this service keeps states "
                        + "itself and does not read W&B artifacts", kind);
            } else if (kind != null && !kind.equals("service_checkpoint")) {
                issue("literal_error", path(at, "source", "kind"), "Input should be 'service_checkpoint'", kind);
            }
            checkpointId = text(source, "checkpoint_id", path(at, "source"), true, 128);
        }
        return new RunCommand.LoadState(checkpointId, bool(body, "restore_optimizer", at, false));
    }

    private JsonNode object(JsonNode parent, String field, List<Object> at) {
        JsonNode node = parent == null ? null : parent.get(field);
        if (node == null || node.isNull()) {
            issue("missing", path(at, field), "Field required", null);
            return null;
        }
        if (!node.isObject()) {
            issue("model_attributes_type", path(at, field), "Input should be an object", node);
            return null;
        }
        return node;
    }

    private String text(JsonNode parent, String field, List<Object> at, boolean required, int maxLength) {
        JsonNode node = parent == null ? null : parent.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                issue("missing", path(at, field), "Field required", null);
            }
            return null;
        }
        if (!node.isTextual() || node.asText().isEmpty() || node.asText().length() > maxLength) {
            issue("string_type", path(at, field), "Input should be a string of 1 to " + maxLength + " characters", node);
            return null;
        }
        return node.asText();
    }

    private long integer(JsonNode parent, String field, List<Object> at, boolean required, long minimum) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                issue("missing", path(at, field), "Field required", null);
            }
            return minimum;
        }
        if (!node.canConvertToLong() || !node.isIntegralNumber() || node.asLong() < minimum) {
            issue("int_type", path(at, field), "Input should be an integer of at least " + minimum, node);
            return minimum;
        }
        return node.asLong();
    }

    private double number(JsonNode parent, String field, List<Object> at, double fallback) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isNumber() || !Double.isFinite(node.asDouble())) {
            issue("finite_number", path(at, field), "Input should be a finite number", node);
            return fallback;
        }
        return node.asDouble();
    }

    private boolean bool(JsonNode parent, String field, List<Object> at, boolean fallback) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isBoolean()) {
            issue("bool_type", path(at, field), "Input should be a valid boolean", node);
            return fallback;
        }
        return node.asBoolean();
    }

    private void issue(String type, List<Object> loc, String message, Object input) {
        issues.add(new ValidationIssue(type, loc, message, input instanceof JsonNode node ? node.toString() : input));
    }

    private static List<Object> path(List<Object> at, Object... more) {
        List<Object> out = new ArrayList<>(at);
        out.addAll(List.of(more));
        return out;
    }

    private void throwIfAny() {
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
    }
}
