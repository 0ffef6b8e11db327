package org.llmplatform.tracing.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import org.llmplatform.tracing.common.Timestamps;

/** Turns a {@code $literal} into the Java value bound for a parameter of a given type. */
final class Literals {

    static SqlType naturalType(JsonNode value) {
        if (value.isBoolean()) {
            return SqlType.BOOL;
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? SqlType.INT : SqlType.DOUBLE;
        }
        return value.isNumber() ? SqlType.DOUBLE : SqlType.TEXT;
    }

    /** The value as that type, or null where it does not parse (which makes the comparison false). */
    static Object as(JsonNode value, SqlType type) {
        if (value.isNull()) {
            return null;
        }
        return switch (type) {
            case TEXT -> text(value);
            case INT -> value.isIntegralNumber() && value.canConvertToLong() ? value.longValue()
                    : value.isBoolean() ? (value.booleanValue() ? 1L : 0L) : parseLong(text(value));
            case DOUBLE -> value.isNumber() ? value.doubleValue()
                    : value.isBoolean() ? (value.booleanValue() ? 1.0 : 0.0) : parseDouble(text(value));
            case BOOL -> value.isBoolean() ? value.booleanValue() : parseBool(text(value));
            case TIMESTAMP -> timestamp(value);
        };
    }

    /** How ClickHouse prints a scalar: JSON strings without quotes, everything else as JSON text. */
    static String text(JsonNode value) {
        return value.isTextual() ? value.textValue() : value.toString();
    }

    /** ISO datetimes ({@code T}/{@code Z}, offsets, date only = midnight UTC) or unix seconds. */
    private static OffsetDateTime timestamp(JsonNode value) {
        if (value.isNumber()) {
            long micros = Math.round(value.doubleValue() * 1_000_000d);
            return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L)
                    .atOffset(ZoneOffset.UTC);
        }
        String text = text(value).trim();
        if (text.matches("\\d{4}-\\d{2}-\\d{2}")) {
            return LocalDate.parse(text).atStartOfDay().atOffset(ZoneOffset.UTC);
        }
        OffsetDateTime parsed = Timestamps.parseOrNull(text);
        if (parsed == null) {
            throw InvalidQueryException.unsupported("Invalid datetime in query: " + text);
        }
        return parsed;
    }

    private static Long parseLong(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double parseDouble(String text) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Boolean parseBool(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> null;
        };
    }

    private Literals() {
    }
}
