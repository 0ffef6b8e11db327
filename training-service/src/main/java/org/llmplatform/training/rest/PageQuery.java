package org.llmplatform.training.rest;

import java.util.List;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;
import org.llmplatform.training.service.PageRequest;

/** Reads the {@code after}, {@code limit} (1..100, default 20) and {@code order} (asc|desc) query parameters. */
final class PageQuery {

    private static final int DEFAULT_LIMIT = 20;
    private static final int MAX_LIMIT = 100;

    static PageRequest parse(String after, String limit, String order) {
        return new PageRequest(Parameters.optionalUuid(after, In.QUERY, "after"), Parameters.limit(limit, DEFAULT_LIMIT, MAX_LIMIT),
                parseDescending(order));
    }

    private static boolean parseDescending(String order) {
        if (order == null || order.isEmpty() || order.equals("asc")) {
            return false;
        }
        if (order.equals("desc")) {
            return true;
        }
        throw ApiException.invalidField("literal_error", List.of("query", "order"), "Input should be 'asc' or 'desc'", order);
    }

    private PageQuery() {
    }
}
