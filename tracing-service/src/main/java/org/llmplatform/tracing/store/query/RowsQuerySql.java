package org.llmplatform.tracing.store.query;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.tracing.store.query.Expr.Operation;

/**
 * Queries whose rows are JSON objects holding exactly the requested fields, or
 * {@code {"count(*)": n}} when that is what was asked (feedback and cost queries, docs/tracing-service.md#feedback-and-cost-fields).
 * Filtering, sorting and paging happen in SQL.
 */
public final class RowsQuerySql {

    public static final String COUNT = "count(*)";

    private RowsQuerySql() {
    }

    /**
     * {@code scope} is the condition that keeps the query in its project, with its parameters already
     * bound in {@code params}; {@code fields} null or empty means every field.
     */
    public static SqlStatement select(RowTable table, String scope, SqlParams params, List<String> fields,
            Operation query, List<SortKey> sortBy, Long limit, Long offset) {
        String where = query == null ? scope : scope + " AND " + new ExprCompiler(table, params).condition(query);
        List<String> requested = fields == null || fields.isEmpty() || fields.contains("*") ? table.columns() : fields;
        if (requested.contains(COUNT)) {
            String inner = "SELECT 1 FROM " + table.from() + " WHERE " + where + page(limit, offset, params);
            return new SqlStatement("SELECT jsonb_build_object('count(*)', count(*))::text AS row FROM (" + inner + ") matched",
                    params.values());
        }
        List<String> pairs = new ArrayList<>();
        for (String field : requested) {
            pairs.add(params.bind(field, "text") + ", " + table.jsonValue(field, params));
        }
        List<String> order = new ArrayList<>();
        if (sortBy == null) {
            order.addAll(table.defaultOrder());
        } else {
            for (SortKey key : sortBy) {
                order.addAll(SortTerms.of(table.resolve(key.field(), params), key.descending(), table.neverNull(key.field())));
            }
            order.add(table.idColumn());
        }
        String sql = "SELECT jsonb_build_object(" + String.join(", ", pairs) + ")::text AS row FROM " + table.from()
                + " WHERE " + where + " ORDER BY " + String.join(", ", order) + page(limit, offset, params);
        return new SqlStatement(sql, params.values());
    }

    private static String page(Long limit, Long offset, SqlParams params) {
        String page = "";
        if (limit != null) {
            page += " LIMIT " + params.bind(limit, "bigint");
        }
        if (offset != null) {
            page += " OFFSET " + params.bind(offset, "bigint");
        }
        return page;
    }
}
