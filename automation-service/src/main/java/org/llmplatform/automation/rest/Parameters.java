package org.llmplatform.automation.rest;

import java.util.List;
import java.util.UUID;
import org.llmplatform.support.error.ApiException;

/** Path and query parameters arrive as text so that a bad one is a 422 naming it. */
final class Parameters {

    static UUID uuid(String raw, String name) {
        try {
            return UUID.fromString(raw);
        } catch (IllegalArgumentException | NullPointerException notUuid) {
            throw ApiException.invalidField("uuid_parsing", List.of("path", name), "Input should be a valid UUID", raw);
        }
    }

    static String entity(String entity) {
        if (entity == null || entity.isBlank()) {
            throw ApiException.invalidField("missing", List.of("query", "entity"), "Field required", null);
        }
        return entity;
    }

    static int limit(String raw, int fallback, int most) {
        if (raw == null) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(raw.strip());
            if (limit >= 1 && limit <= most) {
                return limit;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the range
        }
        throw ApiException.invalidField("value_error", List.of("query", "limit"), "Input should be an integer from 1 to " + most, raw);
    }

    private Parameters() {
    }
}
