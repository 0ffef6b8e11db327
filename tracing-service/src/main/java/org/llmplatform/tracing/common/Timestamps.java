package org.llmplatform.tracing.common;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import org.llmplatform.support.error.ApiException;

/** Datetimes on the trace API's wire: ISO-8601 in, UTC with {@code Z} out, microsecond precision. */
public final class Timestamps {

    private static final DateTimeFormatter TO_SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    /** Accepts {@code Z} or {@code ±hh:mm} offsets; a value without one is UTC, as pydantic reads it. */
    public static OffsetDateTime parse(String value, List<Object> loc) {
        OffsetDateTime parsed = parseOrNull(value);
        if (parsed == null) {
            throw ApiException.invalidField("datetime_from_date_parsing", loc,
                    "Input should be a valid ISO-8601 datetime, such as 2025-01-01T12:00:00Z", value);
        }
        return parsed;
    }

    /** {@link #parse} for a value that is not the caller's field: null when it is no datetime. */
    public static OffsetDateTime parseOrNull(String value) {
        String text = value.length() > 10 && value.charAt(10) == ' '
                ? value.substring(0, 10) + 'T' + value.substring(11)
                : value;
        try {
            TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
            OffsetDateTime instant = parsed instanceof OffsetDateTime withOffset
                    ? withOffset
                    : ((LocalDateTime) parsed).atOffset(ZoneOffset.UTC);
            return instant.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** As pydantic prints it: {@code 2025-01-01T12:00:00Z}, microseconds only when not zero. */
    public static String format(OffsetDateTime instant) {
        if (instant == null) {
            return null;
        }
        OffsetDateTime utc = instant.withOffsetSameInstant(ZoneOffset.UTC);
        int micros = utc.getNano() / 1000;
        if (utc.getYear() < 0 || utc.getYear() > 9999) {
            String seconds = TO_SECONDS.format(utc);
            return micros == 0 ? seconds + "Z" : seconds + String.format(".%06dZ", micros);
        }
        // By hand: every streamed call formats two or three of these.
        StringBuilder text = new StringBuilder(27);
        digits(text, utc.getYear(), 4).append('-');
        digits(text, utc.getMonthValue(), 2).append('-');
        digits(text, utc.getDayOfMonth(), 2).append('T');
        digits(text, utc.getHour(), 2).append(':');
        digits(text, utc.getMinute(), 2).append(':');
        digits(text, utc.getSecond(), 2);
        if (micros != 0) {
            digits(text.append('.'), micros, 6);
        }
        return text.append('Z').toString();
    }

    private static StringBuilder digits(StringBuilder text, int value, int width) {
        String number = Integer.toString(value);
        for (int i = number.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(number);
    }

    private Timestamps() {
    }
}
