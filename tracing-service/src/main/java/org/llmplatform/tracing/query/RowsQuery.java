package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import org.llmplatform.tracing.query.Expr.Operation;

/**
 * A validated query over rows of one kind (feedback, prices), as {@code /feedback/query} and
 * {@code /cost/query} state it: the fields to return (none: all), an optional {@code $expr}, sort keys
 * (null: the table's default order) and a page.
 */
public record RowsQuery(String projectId, List<String> fields, Operation query, List<SortKey> sortBy, Page page) {

    /** Checks the page, then parses the {@code $expr} and the sort keys (a key without field or direction is malformed). */
    public static RowsQuery of(String projectId, List<String> fields, JsonNode query, List<SortBy> sortBy, Long limit,
            Long offset) {
        Page page = Page.of(limit, offset);
        return new RowsQuery(projectId, fields, ExprParser.parseOptional(query),
                sortBy == null ? null : sortBy.stream().map(RowsQuery::sortKey).toList(), page);
    }

    private static SortKey sortKey(SortBy key) {
        String direction = key == null || key.direction() == null ? "" : key.direction().toLowerCase(Locale.ROOT);
        if (key == null || key.field() == null || !(direction.equals("asc") || direction.equals("desc"))) {
            throw InvalidQueryException.malformed("value_error", List.of("sort_by"),
                    "Each sort key needs a field and a direction, 'asc' or 'desc'");
        }
        return new SortKey(key.field(), direction.equals("desc"));
    }
}
