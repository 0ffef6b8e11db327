package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.llmplatform.tracing.query.Expr.And;
import org.llmplatform.tracing.query.Expr.Compare;
import org.llmplatform.tracing.query.Expr.Comparison;
import org.llmplatform.tracing.query.Expr.Contains;
import org.llmplatform.tracing.query.Expr.ContainsToken;
import org.llmplatform.tracing.query.Expr.Convert;
import org.llmplatform.tracing.query.Expr.ConvertTo;
import org.llmplatform.tracing.query.Expr.GetField;
import org.llmplatform.tracing.query.Expr.In;
import org.llmplatform.tracing.query.Expr.Literal;
import org.llmplatform.tracing.query.Expr.Not;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.Expr.Or;

/**
 * Reads {@code {"$expr": …}} into an {@link Expr}. Shape errors name the spot (malformed, a 422 like the
 * reference's pydantic models); the semantic ones the reference raises later (an empty {@code $and})
 * are unsupported (400s).
 */
public final class ExprParser {

    private static final Map<String, Comparison> COMPARISONS = Map.of("$eq", Comparison.EQ, "$gt", Comparison.GT,
            "$gte", Comparison.GTE, "$lt", Comparison.LT, "$lte", Comparison.LTE);

    private final List<Object> at;

    private ExprParser(List<Object> at) {
        this.at = at;
    }

    /** The {@code query} of a request, or null when it has none (absent or JSON null). */
    public static Operation parseOptional(JsonNode query) {
        return query == null || query.isNull() ? null : parseQuery(query);
    }

    /** The {@code query} object of a request: exactly one key, {@code $expr}, holding an operation. */
    public static Operation parseQuery(JsonNode query) {
        List<Object> at = List.of("query");
        if (!query.isObject()) {
            throw invalid(at, "Input should be a valid dictionary");
        }
        Iterator<String> keys = query.fieldNames();
        while (keys.hasNext()) {
            String key = keys.next();
            if (!key.equals("$expr")) {
                throw InvalidQueryException.malformed("extra_forbidden", append(at, key), "Extra inputs are not permitted");
            }
        }
        if (!query.has("$expr")) {
            throw InvalidQueryException.malformed("missing", append(at, "$expr"), "Field required");
        }
        return new ExprParser(append(at, "$expr")).operation(query.get("$expr"));
    }

    private Operation operation(JsonNode node) {
        Expr parsed = expr(node);
        if (parsed instanceof Operation operation) {
            return operation;
        }
        throw invalid(at, "Expected an operation ($and, $or, $not, $eq, $gt, $gte, $lt, $lte, $in, $contains, $containsToken)");
    }

    private Expr expr(JsonNode node) {
        if (!node.isObject() || node.size() != 1) {
            throw invalid(at, "Each expression is an object with exactly one $-key");
        }
        String key = node.fieldNames().next();
        JsonNode value = node.get(key);
        Comparison comparison = COMPARISONS.get(key);
        if (comparison != null) {
            List<JsonNode> pair = list(value, key, 2);
            return new Compare(comparison, expr(pair.get(0)), expr(pair.get(1)));
        }
        return switch (key) {
            case "$literal" -> new Literal(value);
            case "$getField" -> {
                if (!value.isTextual()) {
                    throw invalid(at, "$getField takes a field name");
                }
                yield new GetField(value.textValue());
            }
            case "$convert" -> convert(value);
            case "$and" -> new And(operations(value, key));
            case "$or" -> new Or(operations(value, key));
            case "$not" -> new Not(operation(list(value, key, 1).get(0)));
            case "$in" -> in(value);
            case "$contains" -> contains(value, key);
            case "$containsToken" -> {
                Contains contains = contains(value, key);
                yield new ContainsToken(contains.input(), contains.substring(), contains.caseInsensitive());
            }
            default -> throw invalid(at, "Unknown operation " + key);
        };
    }

    private List<Operation> operations(JsonNode value, String key) {
        if (!value.isArray()) {
            throw invalid(at, key + " takes a list");
        }
        if (value.isEmpty()) {
            throw InvalidQueryException.unsupported("Empty " + key.substring(1).toUpperCase(Locale.ROOT) + " operation");
        }
        List<Operation> operations = new ArrayList<>();
        value.forEach(element -> operations.add(operation(element)));
        return operations;
    }

    private Convert convert(JsonNode value) {
        if (!value.isObject() || !value.has("input") || !value.path("to").isTextual() || value.size() != 2) {
            throw invalid(at, "$convert takes {\"input\": …, \"to\": \"double|string|int|bool|exists\"}");
        }
        ConvertTo to = switch (value.get("to").textValue()) {
            case "double" -> ConvertTo.DOUBLE;
            case "string" -> ConvertTo.STRING;
            case "int" -> ConvertTo.INT;
            case "bool" -> ConvertTo.BOOL;
            case "exists" -> ConvertTo.EXISTS;
            default -> throw invalid(at, "$convert can convert to double, string, int, bool or exists");
        };
        return new Convert(expr(value.get("input")), to);
    }

    private In in(JsonNode value) {
        List<JsonNode> pair = list(value, "$in", 2);
        if (!pair.get(1).isArray()) {
            throw invalid(at, "The second element of $in is a list of operands");
        }
        List<Expr> candidates = new ArrayList<>();
        pair.get(1).forEach(candidate -> candidates.add(expr(candidate)));
        return new In(expr(pair.get(0)), candidates);
    }

    private Contains contains(JsonNode value, String operator) {
        if (!value.isObject() || !value.has("input") || !value.has("substr")) {
            throw invalid(at, operator + " takes {\"input\": …, \"substr\": …, \"case_insensitive\": false}");
        }
        Iterator<String> keys = value.fieldNames();
        while (keys.hasNext()) {
            String key = keys.next();
            if (!List.of("input", "substr", "case_insensitive").contains(key)) {
                throw invalid(at, "Unknown key " + key + " in " + operator);
            }
        }
        JsonNode caseInsensitive = value.path("case_insensitive");
        if (!caseInsensitive.isMissingNode() && !caseInsensitive.isBoolean() && !caseInsensitive.isNull()) {
            throw invalid(at, "case_insensitive is a boolean");
        }
        return new Contains(expr(value.get("input")), expr(value.get("substr")), caseInsensitive.asBoolean(false));
    }

    private List<JsonNode> list(JsonNode value, String key, int size) {
        if (!value.isArray() || value.size() != size) {
            throw invalid(at, key + " takes a list of exactly " + size + (size == 1 ? " operation" : " operands"));
        }
        List<JsonNode> elements = new ArrayList<>();
        value.forEach(elements::add);
        return elements;
    }

    private static InvalidQueryException invalid(List<Object> loc, String message) {
        return InvalidQueryException.malformed("value_error", loc, message);
    }

    private static List<Object> append(List<Object> at, Object key) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(key);
        return loc;
    }
}
