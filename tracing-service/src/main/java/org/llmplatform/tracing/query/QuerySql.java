package org.llmplatform.tracing.query;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.tracing.query.Expr.Operation;

/**
 * What stores call to turn a parsed query into SQL: the {@code $expr} condition and the sort terms over
 * the fields of one table, and whole statements for queries whose rows are JSON objects holding exactly
 * the requested fields, or {@code {"count(*)": n}} when that is what was asked (feedback and cost
 * queries, docs/tracing-service.md#feedback-and-cost-fields). Filtering, sorting and paging happen in SQL.
 */
public final class QuerySql {

    public static final String COUNT = "count(*)";

    private QuerySql() {
    }

    /** The {@code $expr} as a condition over {@code fields}; a caller's mistake is an {@link InvalidQueryException}. */
    public static String condition(FieldResolver fields, SqlParams params, Operation query) {
        return new ExprCompiler(fields, params).condition(query);
    }

    /** The ORDER BY terms of one sort key (see {@link SortTerms}). */
    public static List<String> orderTerms(FieldResolver fields, SqlParams params, SortKey key, boolean neverNull) {
        return SortTerms.of(fields.resolve(key.field(), params), key.descending(), neverNull);
    }

    /** The LIMIT and OFFSET clauses of a page. */
    public static String page(Page page, SqlParams params) {
        return page.sql(params);
    }

    /**
     * A rows query's statement. {@code projectScope} is the condition that keeps the query in its project, with
     * {@code %s} where the project id goes; no fields (or {@code *}) means every field.
     */
    public static SqlStatement rows(RowTable table, String projectScope, RowsQuery query) {
        SqlParams params = new SqlParams();
        String scope = projectScope.formatted(params.bind(query.projectId(), "text"));
        String where = query.query() == null ? scope : scope + " AND " + condition(table, params, query.query());
        List<String> fields = query.fields();
        List<String> requested = fields == null || fields.isEmpty() || fields.contains("*") ? table.columns() : fields;
        if (requested.contains(COUNT)) {
            String inner = "SELECT 1 FROM " + table.from() + " WHERE " + where + page(query.page(), params);
            return new SqlStatement("SELECT jsonb_build_object('count(*)', count(*))::text AS row FROM (" + inner + ") matched",
                    params.values());
        }
        List<String> pairs = new ArrayList<>();
        for (String field : requested) {
            pairs.add(params.bind(field, "text") + ", " + table.jsonValue(field, params));
        }
        List<String> order = new ArrayList<>();
        if (query.sortBy() == null) {
            order.addAll(table.defaultOrder());
        } else {
            for (SortKey key : query.sortBy()) {
                order.addAll(orderTerms(table, params, key, table.neverNull(key.field())));
            }
            order.add(table.idColumn());
        }
        String sql = "SELECT jsonb_build_object(" + String.join(", ", pairs) + ")::text AS row FROM " + table.from()
                + " WHERE " + where + " ORDER BY " + String.join(", ", order) + page(query.page(), params);
        return new SqlStatement(sql, params.values());
    }
}
