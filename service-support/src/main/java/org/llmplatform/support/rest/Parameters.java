package org.llmplatform.support.rest;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.support.error.ApiException;

/**
 * Path and query parameters taken as text, so that a bad one is a 422 naming it ({@code loc} = where, name),
 * with FastAPI's issue types, rather than JAX-RS's bare 404. The service's {@code ErrorFormat} shapes the body.
 */
public final class Parameters {

    /** Where a parameter comes from: the first element of an issue's {@code loc}. */
    public enum In {
        PATH("path"), QUERY("query");

        private final String loc;

        In(String loc) {
            this.loc = loc;
        }
    }

    /** The {@code limit} query parameter: {@code fallback} when absent or empty, else a whole number from 1 to {@code most}. */
    public static int limit(String raw, int fallback, int most) {
        return boundedInt(raw, In.QUERY, "limit", fallback, 1, most);
    }

    /** A whole number from {@code least} to {@code most}; {@code fallback} when absent or empty. */
    public static int boundedInt(String raw, In in, String name, int fallback, int least, int most) {
        return optionalInt(raw, in, name, least, most).orElse(fallback);
    }

    /** A whole number from {@code least} to {@code most}, or empty when absent or empty. */
    public static Optional<Integer> optionalInt(String raw, In in, String name, int least, int most) {
        if (raw == null || raw.isBlank()) {
            return Optional.empty();
        }
        int value;
        try {
            value = Integer.parseInt(raw.strip());
        } catch (NumberFormatException notANumber) {
            throw invalid("int_parsing", in, name, "Input should be a valid integer, unable to parse string as an integer", raw);
        }
        if (value < least) {
            throw invalid("greater_than_equal", in, name, "Input should be greater than or equal to " + least, raw);
        }
        if (value > most) {
            throw invalid("less_than_equal", in, name, "Input should be less than or equal to " + most, raw);
        }
        return Optional.of(value);
    }

    /** A required UUID. */
    public static UUID uuid(String raw, In in, String name) {
        if (raw == null) {
            throw missing(in, name);
        }
        try {
            return UUID.fromString(raw);
        } catch (IllegalArgumentException notAnId) {
            throw invalid("uuid_parsing", in, name, "Input should be a valid UUID", raw);
        }
    }

    /** A UUID that may be absent or empty. */
    public static Optional<UUID> optionalUuid(String raw, In in, String name) {
        return raw == null || raw.isEmpty() ? Optional.empty() : Optional.of(uuid(raw, in, name));
    }

    /** An ISO date ({@code 2026-11-25}), or empty when absent or empty. */
    public static Optional<LocalDate> optionalDate(String raw, In in, String name) {
        if (raw == null || raw.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDate.parse(raw.strip()));
        } catch (DateTimeParseException notADate) {
            throw invalid("date_from_datetime_parsing", in, name, "Input should be a valid date in the format YYYY-MM-DD", raw);
        }
    }

    /** A required text that is not blank. */
    public static String required(String raw, In in, String name) {
        if (raw == null || raw.isBlank()) {
            throw missing(in, name);
        }
        return raw;
    }

    private static ApiException missing(In in, String name) {
        return invalid("missing", in, name, "Field required", null);
    }

    private static ApiException invalid(String type, In in, String name, String message, String input) {
        return ApiException.invalidField(type, List.of(in.loc, name), message, input);
    }

    private Parameters() {
    }
}
