package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Array;
import java.util.List;
import java.util.stream.Collectors;
import org.llmplatform.tracing.query.Expr.And;
import org.llmplatform.tracing.query.Expr.Compare;
import org.llmplatform.tracing.query.Expr.Comparison;
import org.llmplatform.tracing.query.Expr.Contains;
import org.llmplatform.tracing.query.Expr.ContainsToken;
import org.llmplatform.tracing.query.Expr.Convert;
import org.llmplatform.tracing.query.Expr.GetField;
import org.llmplatform.tracing.query.Expr.In;
import org.llmplatform.tracing.query.Expr.Literal;
import org.llmplatform.tracing.query.Expr.Not;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.Expr.Or;
import org.llmplatform.tracing.query.SqlValue.Column;
import org.llmplatform.tracing.query.SqlValue.Constant;
import org.llmplatform.tracing.query.SqlValue.JsonPath;

/**
 * Compiles a query to a SQL condition. Types follow docs/tracing-service.md#query-typing: a JSON path takes the type of
 * the literal it meets (int, double, bool or text), {@code $convert} casts parse-or-null, and every
 * comparison with an unknown side is false rather than SQL's NULL, so {@code $not} negates what a
 * reader sees.
 */
final class ExprCompiler {

    private final FieldResolver fields;
    private final SqlParams params;

    public ExprCompiler(FieldResolver fields, SqlParams params) {
        this.fields = fields;
        this.params = params;
    }

    public String condition(Operation operation) {
        if (operation instanceof And and) {
            return join(and.operands(), " AND ");
        }
        if (operation instanceof Or or) {
            return join(or.operands(), " OR ");
        }
        if (operation instanceof Not not) {
            return "(NOT " + condition(not.operand()) + ")";
        }
        if (operation instanceof Compare compare) {
            return compare(compare);
        }
        if (operation instanceof In in) {
            return in(in);
        }
        if (operation instanceof ContainsToken containsToken) {
            return containsToken(containsToken);
        }
        return contains((Contains) operation);
    }

    /** A field, literal or expression as SQL of the given type (used for sort keys too). */
    public SqlValue value(Expr expr) {
        if (expr instanceof Literal literal) {
            return new Constant(literal.value());
        }
        if (expr instanceof GetField field) {
            return fields.resolve(field.path(), params);
        }
        if (expr instanceof Convert convert) {
            return convert(convert);
        }
        return new Column(condition((Operation) expr), SqlType.BOOL);
    }

    private String join(List<Operation> operations, String operator) {
        return operations.stream().map(this::condition).collect(Collectors.joining(operator, "(", ")"));
    }

    private String compare(Compare compare) {
        if (isNullLiteral(compare.left()) || isNullLiteral(compare.right())) {
            if (compare.comparison() != Comparison.EQ) {
                throw InvalidQueryException.unsupported("A null literal is only supported in $eq (meaning IS NULL)");
            }
            Expr other = isNullLiteral(compare.right()) ? compare.left() : compare.right();
            return isNull(value(other));
        }
        SqlValue left = value(compare.left());
        SqlValue right = value(compare.right());
        SqlType type = commonType(left, right);
        String leftSql = typed(left, type);
        if (type == SqlType.TEXT && compare.comparison() != Comparison.EQ) {
            leftSql += " COLLATE \"C\"";
        }
        String comparison = leftSql + " " + compare.comparison().sql + " " + typed(right, type);
        // coalesce() keeps a comparison with null false under $not, and hides the column from its index: a range of
        // started_at walked a project's calls newest first instead of reading the range.
        return neverNullAgainstLiteral(left, right, type) || neverNullAgainstLiteral(right, left, type) ? "(" + comparison + ")"
                : "coalesce(" + comparison + ", false)";
    }

    /**
     * Whether {@code column} is a column never null, compared in its own type with a literal that binds to a value
     * (timestamps and text always do; a number parsed from text may not).
     */
    private static boolean neverNullAgainstLiteral(SqlValue column, SqlValue literal, SqlType type) {
        return column instanceof Column known && known.neverNull() && known.type() == type && literal instanceof Constant
                && (type == SqlType.TIMESTAMP || type == SqlType.TEXT);
    }

    private String in(In in) {
        if (in.candidates().isEmpty()) {
            return "false";
        }
        SqlValue operand = value(in.operand());
        List<SqlValue> candidates = in.candidates().stream().map(this::value).toList();
        if (candidates.stream().allMatch(Constant.class::isInstance)) {
            List<JsonNode> literals = candidates.stream().map(c -> ((Constant) c).value())
                    .filter(literal -> !literal.isNull()).toList();
            if (literals.isEmpty()) {
                return "false";
            }
            SqlType type = withLiteral(operand, literalsType(literals));
            Object array = Array.newInstance(javaType(type), literals.size());
            for (int i = 0; i < literals.size(); i++) {
                Array.set(array, i, Literals.as(literals.get(i), type));
            }
            return "coalesce(" + typed(operand, type) + " = ANY(" + params.bind(array, type.pgName + "[]") + "), false)";
        }
        SqlType type = commonType(operand, candidates.get(0));
        String list = candidates.stream().map(candidate -> typed(candidate, type)).collect(Collectors.joining(", "));
        return "coalesce(" + typed(operand, type) + " IN (" + list + "), false)";
    }

    private String contains(Contains contains) {
        SqlValue searched = value(contains.input());
        if (searched instanceof JsonPath document && document.wholeDocument()) {
            return containsInDocument(document, value(contains.substring()), contains.caseInsensitive());
        }
        String input = typed(searched, SqlType.TEXT);
        String substring = typed(value(contains.substring()), SqlType.TEXT);
        if (contains.caseInsensitive()) {
            input = "lower(" + input + ")";
            substring = "lower(" + substring + ")";
        }
        return "coalesce(strpos(" + input + ", " + substring + ") > 0, false)";
    }

    /**
     * {@code $contains} on a whole JSON column ({@code inputs}, {@code output}, ...): the substring, escaped as
     * inside a JSON string, occurs in the column's JSON text, so it finds any key or value at any depth
     * (docs/tracing-service.md#searching-inputs-and-outputs). A literal becomes a LIKE pattern, the exact check of
     * the calls that the traces' words (migration V28, {@code calls.SearchTerms}) give.
     */
    private String containsInDocument(JsonPath document, SqlValue substring, boolean caseInsensitive) {
        String text = "(" + document.documentSql() + ")::text";
        if (substring instanceof Constant constant && !constant.value().isNull()) {
            String needle = JsonText.escaped(Literals.as(constant.value(), SqlType.TEXT).toString());
            String pattern = params.bind("%" + escapeLike(needle) + "%", "text");
            // Two-valued: a call without the column does not match, and matches its $not.
            return "(" + document.documentSql() + " IS NOT NULL AND " + text + (caseInsensitive ? " ILIKE " : " LIKE ")
                    + pattern + ")";
        }
        String needle = typed(substring, SqlType.TEXT);
        if (caseInsensitive) {
            text = "lower(" + text + ")";
            needle = "lower(" + needle + ")";
        }
        return "coalesce(strpos(" + text + ", tracing.json_string_content(" + needle + ")) > 0, false)";
    }

    private static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private String containsToken(ContainsToken contains) {
        String input = typed(value(contains.input()), SqlType.TEXT);
        String token = typed(value(contains.token()), SqlType.TEXT);
        if (contains.caseInsensitive()) {
            input = "lower(" + input + ")";
            token = "lower(" + token + ")";
        }
        return "coalesce(tracing.has_token(" + input + ", " + token + "), false)";
    }

    private SqlValue convert(Convert convert) {
        SqlValue input = value(convert.input());
        return switch (convert.to()) {
            case EXISTS -> new Column("(NOT " + isNull(input) + ")", SqlType.BOOL);
            case STRING -> new Column(typed(input, SqlType.TEXT), SqlType.TEXT);
            case INT -> new Column(typed(input, SqlType.INT), SqlType.INT);
            case DOUBLE -> new Column(typed(input, SqlType.DOUBLE), SqlType.DOUBLE);
            case BOOL -> new Column(typed(input, SqlType.BOOL), SqlType.BOOL);
        };
    }

    private String isNull(SqlValue value) {
        if (value instanceof JsonPath path) {
            return "(NOT " + path.exists() + ")";
        }
        if (value instanceof Column column) {
            return "(" + column.sql() + " IS NULL)";
        }
        return ((Constant) value).value().isNull() ? "true" : "false";
    }

    /** The value as SQL of {@code type}: a parse-or-null cast where the types differ. */
    String typed(SqlValue value, SqlType type) {
        if (value instanceof Constant constant) {
            return params.bind(Literals.as(constant.value(), type), type.pgName);
        }
        if (value instanceof JsonPath path) {
            return cast(path.text(), SqlType.TEXT, type);
        }
        Column column = (Column) value;
        return cast(column.sql(), column.type(), type);
    }

    private static String cast(String sql, SqlType from, SqlType to) {
        if (from == to) {
            return sql;
        }
        if (from == SqlType.TIMESTAMP || to == SqlType.TIMESTAMP) {
            throw noCommonType(from, to);
        }
        return switch (to) {
            case TEXT -> from == SqlType.BOOL ? "(CASE WHEN " + sql + " THEN 'true' ELSE 'false' END)" : "(" + sql + ")::text";
            case INT -> switch (from) {
                case TEXT -> "tracing.to_bigint(" + sql + ")";
                case DOUBLE -> "trunc(" + sql + ")::bigint";
                default -> "(" + sql + ")::int::bigint";
            };
            case DOUBLE -> switch (from) {
                case TEXT -> "tracing.to_double(" + sql + ")";
                case BOOL -> "(" + sql + ")::int::float8";
                default -> "(" + sql + ")::float8";
            };
            case BOOL -> switch (from) {
                case TEXT -> "tracing.to_bool(" + sql + ")";
                default -> "((" + sql + ") <> 0)";
            };
            case TIMESTAMP -> throw noCommonType(from, to);
        };
    }

    private static SqlType commonType(SqlValue left, SqlValue right) {
        if (left instanceof Constant constant) {
            return withLiteral(right, Literals.naturalType(constant.value()));
        }
        if (right instanceof Constant constant) {
            return withLiteral(left, Literals.naturalType(constant.value()));
        }
        if (left instanceof JsonPath && right instanceof JsonPath) {
            return SqlType.TEXT;
        }
        SqlType leftType = left instanceof Column column ? column.type() : null;
        SqlType rightType = right instanceof Column column ? column.type() : null;
        if (leftType == null || rightType == null) {
            SqlType known = leftType != null ? leftType : rightType;
            if (known == SqlType.TIMESTAMP) {
                throw noCommonType(SqlType.TEXT, known);
            }
            return known.isNumeric() ? SqlType.DOUBLE : known;
        }
        if (leftType == rightType) {
            return leftType;
        }
        if (leftType.isNumeric() && rightType.isNumeric()) {
            return SqlType.DOUBLE;
        }
        if (leftType == SqlType.TIMESTAMP || rightType == SqlType.TIMESTAMP) {
            throw noCommonType(leftType, rightType);
        }
        return SqlType.TEXT;
    }

    /** The type a comparison of {@code value} with a literal of {@code literal} type happens in. */
    private static SqlType withLiteral(SqlValue value, SqlType literal) {
        if (value instanceof Constant constant) {
            SqlType own = Literals.naturalType(constant.value());
            return own == literal ? own : own.isNumeric() && literal.isNumeric() ? SqlType.DOUBLE : SqlType.TEXT;
        }
        if (value instanceof JsonPath) {
            return literal;
        }
        SqlType type = ((Column) value).type();
        return type.isNumeric() && literal == SqlType.DOUBLE ? SqlType.DOUBLE : type;
    }

    private static SqlType literalsType(List<JsonNode> literals) {
        SqlType type = Literals.naturalType(literals.get(0));
        for (JsonNode literal : literals) {
            SqlType next = Literals.naturalType(literal);
            if (next != type) {
                type = type.isNumeric() && next.isNumeric() ? SqlType.DOUBLE : SqlType.TEXT;
            }
        }
        return type;
    }

    private static Class<?> javaType(SqlType type) {
        return switch (type) {
            case TEXT -> String.class;
            case INT -> Long.class;
            case DOUBLE -> Double.class;
            case BOOL -> Boolean.class;
            case TIMESTAMP -> java.time.OffsetDateTime.class;
        };
    }

    private static boolean isNullLiteral(Expr expr) {
        return expr instanceof Literal literal && literal.isNull();
    }

    private static InvalidQueryException noCommonType(SqlType left, SqlType right) {
        return InvalidQueryException.unsupported("No common type between data types in query: " + left.name().toLowerCase()
                + " and " + right.name().toLowerCase() + "; wrap the field in $convert");
    }
}
