package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.evals.EvalResultRows.Row;
import org.llmplatform.tracing.evals.EvalResultRows.TrialSource;

/**
 * The fields {@code sort_by} and {@code filters} of {@code eval_results/query} name, read as the reference's ClickHouse
 * query reads them: {@code row_digest}; {@code inputs.<path>} in the dataset row (the example, or the table row its
 * ref names); {@code output.<path>} and {@code scores.<path>} in a trial's {@code predict_and_score} output. A trial's
 * value is text, as {@code JSON_VALUE} gives it: a string as is, a number or boolean as JSON, anything else or nothing
 * as {@code ""}; a score's {@code true}/{@code false} read as {@code 1}/{@code 0}. A row's value is its first trial's
 * (within one evaluation when the sort or filter names one); a row without such a trial has none (SQL NULL).
 */
final class EvalResultFields {

    private static final String SUPPORTED = "Supported prefixes: scores.*, inputs.*, output.*, row_digest.";
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(inf|nan)",
            Pattern.CASE_INSENSITIVE);

    private EvalResultFields() {
    }

    static void requireSortable(String field) {
        if (!known(field)) {
            throw ApiException.badRequest("Unsupported sort field: '" + field + "'. " + SUPPORTED);
        }
    }

    static void requireFilterable(String field) {
        if (!known(field)) {
            throw ApiException.badRequest("Unsupported eval results field: '" + field + "'. " + SUPPORTED);
        }
    }

    static boolean readsInputs(String field) {
        return field.startsWith("inputs.");
    }

    static boolean isScore(String field) {
        return field.startsWith("scores.");
    }

    private static boolean known(String field) {
        return field != null && (field.equals("row_digest") || field.startsWith("inputs.") || field.startsWith("output.")
                || field.startsWith("scores."));
    }

    /** The row's value: its first trial's in scope, null when it has none there. */
    static String first(Row row, String field, String evaluationId) {
        if (field.equals("row_digest")) {
            return row.digest;
        }
        for (TrialSource trial : row.sources) {
            if (evaluationId == null || evaluationId.equals(trial.evaluationId())) {
                return text(row, trial, field);
            }
        }
        return null;
    }

    /** A score's mean over the row's trials in scope that hold a number, as {@code avg(toFloat64OrNull(...))}. */
    static Double mean(Row row, String field, String evaluationId) {
        double sum = 0;
        int count = 0;
        for (TrialSource trial : row.sources) {
            if (evaluationId == null || evaluationId.equals(trial.evaluationId())) {
                Double value = number(text(row, trial, field));
                if (value != null) {
                    sum += value;
                    count++;
                }
            }
        }
        return count == 0 ? null : sum / count;
    }

    /** ClickHouse's {@code toFloat64OrNull}: a decimal number, else null. */
    static Double number(String text) {
        if (text == null || !NUMBER.matcher(text).matches()) {
            return null;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.endsWith("inf")) {
            return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return lower.endsWith("nan") ? Double.NaN : Double.parseDouble(text);
    }

    private static String text(Row row, TrialSource trial, String field) {
        if (field.startsWith("inputs.")) {
            return leaf(at(row.inputs(), field.substring("inputs.".length())), false);
        }
        if (field.startsWith("output.")) {
            return leaf(at(trial.output(), field.substring("output.".length())), false);
        }
        return leaf(at(trial.output().path("scores"), field.substring("scores.".length())), true);
    }

    private static String leaf(JsonNode value, boolean score) {
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isBoolean()) {
            return score ? (value.booleanValue() ? "1" : "0") : String.valueOf(value.booleanValue());
        }
        return value.isNumber() ? value.asText() : "";
    }

    private static JsonNode at(JsonNode node, String dotted) {
        JsonNode value = node;
        for (String key : keys(dotted)) {
            value = value.path(key);
        }
        return value;
    }

    /** The keys of a dotted path, {@code \.} standing for a dot inside a key. */
    static List<String> keys(String dotted) {
        List<String> keys = new ArrayList<>();
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < dotted.length(); i++) {
            char c = dotted.charAt(i);
            if (c == '\\' && i + 1 < dotted.length() && dotted.charAt(i + 1) == '.') {
                key.append('.');
                i++;
            } else if (c == '.') {
                keys.add(key.toString());
                key.setLength(0);
            } else {
                key.append(c);
            }
        }
        keys.add(key.toString());
        return keys;
    }
}
