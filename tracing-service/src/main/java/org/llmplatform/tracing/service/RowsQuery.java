package org.llmplatform.tracing.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.store.query.Expr.Operation;
import org.llmplatform.tracing.store.query.ExprParser;
import org.llmplatform.tracing.store.query.SortKey;

/**
 * A query over rows of one kind (feedback, prices) as {@code /feedback/query} and {@code /cost/query}
 * state it: the fields to return, an optional {@code $expr}, sort keys and a page.
 */
public record RowsQuery(String projectId, List<String> fields, JsonNode query, List<SortKeyRequest> sortBy, Long limit,
        Long offset) {

    public record SortKeyRequest(String field, String direction) {
    }

    /** The parsed {@code $expr}, or null when the request has none. */
    public Operation operation() {
        return query == null || query.isNull() ? null : ExprParser.parseQuery(query, List.of("body", "query"));
    }

    /** The sort keys, or null when the request has none; a key without field or direction is a 422. */
    public List<SortKey> sortKeys() {
        return sortBy == null ? null : sortBy.stream().map(RowsQuery::sortKey).toList();
    }

    public void checkPage() {
        if (limit != null && limit < 0) {
            throw ApiException.badRequest("Limit must be a positive integer");
        }
        if (offset != null && offset < 0) {
            throw ApiException.badRequest("Offset must be a positive integer");
        }
    }

    private static SortKey sortKey(SortKeyRequest key) {
        String direction = key == null || key.direction() == null ? "" : key.direction().toLowerCase(Locale.ROOT);
        if (key == null || key.field() == null || !(direction.equals("asc") || direction.equals("desc"))) {
            throw ApiException.invalidField("value_error", List.of("body", "sort_by"),
                    "Each sort key needs a field and a direction, 'asc' or 'desc'", null);
        }
        return new SortKey(key.field(), direction.equals("desc"));
    }
}
