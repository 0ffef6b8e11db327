package org.llmplatform.tracing.service;

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
            throw ApiException.invalidField("datetime_from_date_parsing", loc,
                    "Input should be a valid ISO-8601 datetime, such as 2025-01-01T12:00:00Z", value);
        }
    }

    /** As pydantic prints it: {@code 2025-01-01T12:00:00Z}, microseconds only when not zero. */
    public static String format(OffsetDateTime instant) {
        if (instant == null) {
            return null;
        }
        OffsetDateTime utc = instant.withOffsetSameInstant(ZoneOffset.UTC);
        int micros = utc.getNano() / 1000;
        String seconds = TO_SECONDS.format(utc);
        return micros == 0 ? seconds + "Z" : seconds + String.format(".%06dZ", micros);
    }

    private Timestamps() {
    }
}
