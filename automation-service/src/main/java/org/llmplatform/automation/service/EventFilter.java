package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.llmplatform.support.error.ApiException;

/**
 * The Mongo-like filters of W&B's artifact events over the fields {@code alias} and {@code tag}. Both
 * are lists on an event; a condition holds when some element satisfies it ({@code $ne}, {@code $nin}:
 * when none does), as in MongoDB. Regexes search ({@code $regex} is unanchored); {@code $options: "i"}
 * ignores case.
 */
public final class EventFilter {

    public static final Set<String> FIELDS = Set.of("alias", "tag");
    private static final Set<String> LOGICAL = Set.of("$and", "$or", "$nor");
    private static final Set<String> COMPARISONS = Set.of("$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin",
            "$exists", "$regex", "$options", "$contains", "$size", "$all", "$not");
    private static final int LONGEST_REGEX = 1000;

    /** The expression itself: saved filters may come back wrapped as {@code {"filter": expr}}. */
    public static JsonNode unwrap(JsonNode filter) {
        if (filter != null && filter.isObject() && filter.size() == 1 && filter.has("filter")) {
            return filter.get("filter");
        }
        return filter;
    }

    /** Throws a 422 at the first problem, its loc under {@code loc}. */
    public static void validate(JsonNode expression, List<Object> loc) {
        if (!expression.isObject()) {
            throw invalid(loc, "A filter must be a JSON object", expression);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = expression.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            List<Object> here = append(loc, entry.getKey());
            if (LOGICAL.contains(entry.getKey())) {
                if (!entry.getValue().isArray()) {
                    throw invalid(here, entry.getKey() + " takes a list of filters", entry.getValue());
                }
                for (int i = 0; i < entry.getValue().size(); i++) {
                    validate(entry.getValue().get(i), append(here, i));
                }
            } else if (entry.getKey().equals("$not")) {
                validate(entry.getValue(), here);
            } else if (FIELDS.contains(entry.getKey())) {
                validateCondition(entry.getValue(), here);
            } else {
                throw invalid(here, "Unknown filter field or operator '" + entry.getKey() + "'; fields are alias and tag",
                        entry.getKey());
            }
        }
    }

    private static void validateCondition(JsonNode condition, List<Object> loc) {
        if (!condition.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = condition.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            List<Object> here = append(loc, entry.getKey());
            String operator = entry.getKey();
            JsonNode operand = entry.getValue();
            if (!COMPARISONS.contains(operator)) {
                throw invalid(here, "Unknown operator '" + operator + "'", operator);
            }
            switch (operator) {
                case "$regex" -> compile(operand, condition.path("$options").asText(""), here);
                case "$in", "$nin", "$all" -> {
                    if (!operand.isArray()) {
                        throw invalid(here, operator + " takes a list", operand);
                    }
                }
                case "$not" -> validateCondition(operand, here);
                case "$size" -> {
                    if (!operand.canConvertToInt()) {
                        throw invalid(here, "$size takes an integer", operand);
                    }
                }
                default -> { }
            }
        }
    }

    /** True when the event's aliases and tags satisfy the filter (an empty filter matches everything). */
    public static boolean matches(JsonNode expression, Map<String, List<String>> fields) {
        for (Iterator<Map.Entry<String, JsonNode>> it = expression.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode value = entry.getValue();
            boolean holds = switch (entry.getKey()) {
                case "$and" -> all(value, fields);
                case "$or" -> value.isEmpty() || any(value, fields);
                case "$nor" -> !any(value, fields);
                case "$not" -> !matches(value, fields);
                default -> condition(value, fields.getOrDefault(entry.getKey(), List.of()));
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    private static boolean all(JsonNode expressions, Map<String, List<String>> fields) {
        for (JsonNode expression : expressions) {
            if (!matches(expression, fields)) {
                return false;
            }
        }
        return true;
    }

    private static boolean any(JsonNode expressions, Map<String, List<String>> fields) {
        for (JsonNode expression : expressions) {
            if (matches(expression, fields)) {
                return true;
            }
        }
        return false;
    }

    private static boolean condition(JsonNode condition, List<String> values) {
        if (!condition.isObject()) {
            return values.contains(condition.asText());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = condition.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode operand = entry.getValue();
            boolean holds = switch (entry.getKey()) {
                case "$eq" -> values.contains(operand.asText());
                case "$ne" -> !values.contains(operand.asText());
                case "$in" -> values.stream().anyMatch(value -> texts(operand).contains(value));
                case "$nin" -> values.stream().noneMatch(value -> texts(operand).contains(value));
                case "$all" -> values.containsAll(texts(operand));
                case "$exists" -> operand.asBoolean() != values.isEmpty();
                case "$size" -> values.size() == operand.asInt();
                case "$contains" -> values.stream().anyMatch(value -> value.contains(operand.asText()));
                case "$regex" -> {
                    Pattern pattern = compile(operand, condition.path("$options").asText(""), List.of());
                    yield values.stream().anyMatch(value -> pattern.matcher(value).find());
                }
                case "$gt" -> values.stream().anyMatch(value -> value.compareTo(operand.asText()) > 0);
                case "$gte" -> values.stream().anyMatch(value -> value.compareTo(operand.asText()) >= 0);
                case "$lt" -> values.stream().anyMatch(value -> value.compareTo(operand.asText()) < 0);
                case "$lte" -> values.stream().anyMatch(value -> value.compareTo(operand.asText()) <= 0);
                case "$not" -> !condition(operand, values);
                default -> true;
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    /** Whether the expression constrains {@code field} anywhere (an alias-added automation needs an alias filter). */
    public static boolean mentions(JsonNode expression, String field) {
        if (expression.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = expression.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                if (entry.getKey().equals(field) || mentions(entry.getValue(), field)) {
                    return true;
                }
            }
        } else if (expression.isArray()) {
            for (JsonNode element : expression) {
                if (mentions(element, field)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Pattern compile(JsonNode regex, String options, List<Object> loc) {
        if (!regex.isTextual()) {
            throw invalid(loc, "$regex takes a string", regex);
        }
        if (regex.asText().length() > LONGEST_REGEX) {
            throw invalid(loc, "The regex is longer than " + LONGEST_REGEX + " characters", regex.asText());
        }
        try {
            return Pattern.compile(regex.asText(), options.contains("i") ? Pattern.CASE_INSENSITIVE : 0);
        } catch (PatternSyntaxException e) {
            throw invalid(loc, "Invalid regex: " + e.getDescription() + " near index " + e.getIndex(), regex.asText());
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(element -> texts.add(element.asText()));
        return texts;
    }

    private static List<Object> append(List<Object> loc, Object part) {
        List<Object> longer = new ArrayList<>(loc);
        longer.add(part);
        return longer;
    }

    private static ApiException invalid(List<Object> loc, String message, Object input) {
        return ApiException.invalidField("value_error", loc, message, input instanceof JsonNode node ? node.toString() : input);
    }

    private EventFilter() {
    }
}
