package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.llmplatform.tracing.evals.EvalResultRows.Row;
import org.llmplatform.tracing.query.Expr;
import org.llmplatform.tracing.query.Expr.And;
import org.llmplatform.tracing.query.Expr.Compare;
import org.llmplatform.tracing.query.Expr.Contains;
import org.llmplatform.tracing.query.Expr.ContainsToken;
import org.llmplatform.tracing.query.Expr.Convert;
import org.llmplatform.tracing.query.Expr.GetField;
import org.llmplatform.tracing.query.Expr.In;
import org.llmplatform.tracing.query.Expr.Literal;
import org.llmplatform.tracing.query.Expr.Not;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.Expr.Or;

/**
 * The {@code filters} of {@code eval_results/query} on grouped rows, in SQL's three-valued logic as the reference's
 * {@code HAVING} clause: a field is its row's value ({@link EvalResultFields}), compared as a number when the other side
 * is a number (a literal or a {@code $convert} to double/int), as a boolean beside a boolean, else as text; a row
 * without a value matches no comparison. Filters are AND'd; with {@code filter_logic_operator} {@code or} those of one
 * evaluation are AND'd and the evaluations' groups OR'd (a row matching in any evaluation).
 */
final class EvalRowFilter {

    record Scoped(String evaluationId, Operation query) {
    }

    private final List<List<Scoped>> groups;

    private EvalRowFilter(List<List<Scoped>> groups) {
        this.groups = groups;
    }

    static EvalRowFilter of(List<Scoped> filters, boolean matchAny) {
        if (!matchAny) {
            return new EvalRowFilter(filters.isEmpty() ? List.of() : List.of(filters));
        }
        Map<String, List<Scoped>> byEvaluation = new LinkedHashMap<>();
        filters.forEach(filter -> byEvaluation.computeIfAbsent(Objects.toString(filter.evaluationId(), ""),
                key -> new ArrayList<>()).add(filter));
        return new EvalRowFilter(new ArrayList<>(byEvaluation.values()));
    }

    /** The fields the filters read, to check them and to know whether dataset rows must be read. */
    static List<String> fields(Expr expr) {
        List<String> fields = new ArrayList<>();
        collect(expr, fields);
        return fields;
    }

    boolean isEmpty() {
        return groups.isEmpty();
    }

    boolean matches(Row row) {
        if (groups.isEmpty()) {
            return true;
        }
        for (List<Scoped> group : groups) {
            boolean all = true;
            for (Scoped filter : group) {
                all &= Boolean.TRUE.equals(truth(filter.query(), row, filter.evaluationId()));
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static Boolean truth(Operation operation, Row row, String scope) {
        if (operation instanceof And and) {
            Boolean result = true;
            for (Operation operand : and.operands()) {
                Boolean value = truth(operand, row, scope);
                if (Boolean.FALSE.equals(value)) {
                    return false;
                }
                result = value == null ? null : result;
            }
            return result;
        }
        if (operation instanceof Or or) {
            Boolean result = false;
            for (Operation operand : or.operands()) {
                Boolean value = truth(operand, row, scope);
                if (Boolean.TRUE.equals(value)) {
                    return true;
                }
                result = value == null ? null : result;
            }
            return result;
        }
        if (operation instanceof Not not) {
            Boolean value = truth(not.operand(), row, scope);
            return value == null ? null : !value;
        }
        if (operation instanceof Compare compare) {
            return compare(compare, value(compare.left(), row, scope), value(compare.right(), row, scope));
        }
        if (operation instanceof In in) {
            Object operand = value(in.operand(), row, scope);
            Boolean result = false;
            for (Expr candidate : in.candidates()) {
                Boolean equal = equal(operand, value(candidate, row, scope));
                if (Boolean.TRUE.equals(equal)) {
                    return true;
                }
                result = equal == null ? null : result;
            }
            return result;
        }
        if (operation instanceof Contains contains) {
            return contains(value(contains.input(), row, scope), value(contains.substring(), row, scope),
                    contains.caseInsensitive(), false);
        }
        ContainsToken token = (ContainsToken) operation;
        return contains(value(token.input(), row, scope), value(token.token(), row, scope), token.caseInsensitive(), true);
    }

    /** A value: text, a Double, a Boolean, or null for SQL NULL. */
    private static Object value(Expr expr, Row row, String scope) {
        if (expr instanceof Literal literal) {
            return literal(literal.value());
        }
        if (expr instanceof GetField field) {
            return EvalResultFields.first(row, field.path(), scope);
        }
        if (expr instanceof Convert convert) {
            return convert(value(convert.input(), row, scope), convert.to());
        }
        return truth((Operation) expr, row, scope);
    }

    private static Object literal(JsonNode value) {
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        return value.isNull() ? null : value.isTextual() ? value.textValue() : value.toString();
    }

    private static Object convert(Object value, Expr.ConvertTo to) {
        return switch (to) {
            case DOUBLE -> number(value);
            case INT -> {
                Double number = number(value);
                yield number == null ? null : (Object) (double) number.longValue();
            }
            case STRING -> value == null ? null : value instanceof Double d ? text(d) : value.toString();
            case BOOL -> bool(value);
            case EXISTS -> value != null;
        };
    }

    private static Boolean compare(Compare compare, Object left, Object right) {
        if (compare.comparison() == Expr.Comparison.EQ) {
            return equal(left, right);
        }
        Integer order = order(left, right);
        if (order == null) {
            return null;
        }
        return switch (compare.comparison()) {
            case GT -> order > 0;
            case GTE -> order >= 0;
            case LT -> order < 0;
            case LTE -> order <= 0;
            case EQ -> order == 0;
        };
    }

    private static Boolean equal(Object left, Object right) {
        Integer order = order(left, right);
        return order == null ? null : order == 0;
    }

    private static Integer order(Object left, Object right) {
        if (left == null || right == null) {
            return null;
        }
        if (left instanceof Double || right instanceof Double) {
            Double a = number(left);
            Double b = number(right);
            return a == null || b == null ? null : Double.compare(a, b);
        }
        if (left instanceof Boolean || right instanceof Boolean) {
            Boolean a = bool(left);
            Boolean b = bool(right);
            return a == null || b == null ? null : Boolean.compare(a, b);
        }
        return left.toString().compareTo(right.toString());
    }

    private static Boolean contains(Object input, Object part, boolean caseInsensitive, boolean wholeToken) {
        if (input == null || part == null) {
            return null;
        }
        String text = input instanceof Double d ? text(d) : input.toString();
        String wanted = part instanceof Double d ? text(d) : part.toString();
        if (caseInsensitive) {
            text = text.toLowerCase(Locale.ROOT);
            wanted = wanted.toLowerCase(Locale.ROOT);
        }
        if (!wholeToken) {
            return text.contains(wanted);
        }
        for (int at = text.indexOf(wanted); at >= 0 && !wanted.isEmpty(); at = text.indexOf(wanted, at + 1)) {
            int end = at + wanted.length();
            if ((at == 0 || !isWordChar(text.charAt(at - 1))) && (end == text.length() || !isWordChar(text.charAt(end)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return c < 128 && Character.isLetterOrDigit(c);
    }

    private static Double number(Object value) {
        if (value instanceof Double d) {
            return d;
        }
        if (value instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        return value == null ? null : EvalResultFields.number(value.toString());
    }

    private static Boolean bool(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Double d) {
            return d != 0;
        }
        String text = value == null ? null : value.toString().toLowerCase(Locale.ROOT);
        if ("true".equals(text) || "1".equals(text)) {
            return true;
        }
        return "false".equals(text) || "0".equals(text) ? false : null;
    }

    private static String text(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    private static void collect(Expr expr, List<String> fields) {
        if (expr instanceof GetField field) {
            fields.add(field.path());
        } else if (expr instanceof Convert convert) {
            collect(convert.input(), fields);
        } else if (expr instanceof And and) {
            and.operands().forEach(operand -> collect(operand, fields));
        } else if (expr instanceof Or or) {
            or.operands().forEach(operand -> collect(operand, fields));
        } else if (expr instanceof Not not) {
            collect(not.operand(), fields);
        } else if (expr instanceof Compare compare) {
            collect(compare.left(), fields);
            collect(compare.right(), fields);
        } else if (expr instanceof In in) {
            collect(in.operand(), fields);
            in.candidates().forEach(candidate -> collect(candidate, fields));
        } else if (expr instanceof Contains contains) {
            collect(contains.input(), fields);
            collect(contains.substring(), fields);
        } else if (expr instanceof ContainsToken token) {
            collect(token.input(), fields);
            collect(token.token(), fields);
        }
    }
}
