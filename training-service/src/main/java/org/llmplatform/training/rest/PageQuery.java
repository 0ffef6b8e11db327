package org.llmplatform.training.rest;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.training.service.PageRequest;

/** Reads the {@code after}, {@code limit} (1..100, default 20) and {@code order} (asc|desc) query parameters. */
final class PageQuery {

    private static final int DEFAULT_LIMIT = 20;
    private static final int MAX_LIMIT = 100;

    static PageRequest parse(String after, String limit, String order) {
        return new PageRequest(parseAfter(after), parseLimit(limit), parseDescending(order));
    }

    private static Optional<UUID> parseAfter(String after) {
        if (after == null || after.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(after));
        } catch (IllegalArgumentException notAnId) {
            throw ApiException.invalidField("uuid_parsing", List.of("query", "after"),
                    "Input should be a valid UUID, the id of the last item of the previous page", after);
        }
    }

    private static int parseLimit(String limit) {
        if (limit == null || limit.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(limit.trim());
        } catch (NumberFormatException notANumber) {
            throw ApiException.invalidField("int_parsing", List.of("query", "limit"),
                    "Input should be a valid integer, unable to parse string as an integer", limit);
        }
        if (parsed < 1) {
            throw ApiException.invalidField("greater_than_equal", List.of("query", "limit"), "Input should be greater than or equal to 1", limit);
        }
        if (parsed > MAX_LIMIT) {
            throw ApiException.invalidField("less_than_equal", List.of("query", "limit"),
                    "Input should be less than or equal to " + MAX_LIMIT, limit);
        }
        return parsed;
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
