package org.llmplatform.tracing.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The wire's datetimes: the hand-read common form agrees with ISO-8601 as the JDK's formatter reads it. */
class TimestampsTest {

    @Test
    void readsTheFormsClientsSendInUtcToTheMicrosecond() {
        OffsetDateTime noon = OffsetDateTime.of(2025, 1, 1, 12, 0, 0, 0, ZoneOffset.UTC);
        assertEquals(noon, Timestamps.parseOrNull("2025-01-01T12:00:00Z"));
        assertEquals(noon, Timestamps.parseOrNull("2025-01-01 12:00:00"));
        assertEquals(noon, Timestamps.parseOrNull("2025-01-01T13:30:00+01:30"));
        assertEquals(noon.plusNanos(123_456_000), Timestamps.parseOrNull("2025-01-01T12:00:00.123456789Z"));
        assertEquals(noon, Timestamps.parseOrNull("2025-01-01t12:00:00z"));
        assertNull(Timestamps.parseOrNull("2025-02-30T12:00:00Z"));
        assertNull(Timestamps.parseOrNull("2025-01-01T12:00:00+19:00"));
        assertEquals(noon, Timestamps.parseOrNull("2025-01-01T12:00:00.Z"), "ISO-8601 allows a point without digits");
    }

    @Test
    void agreesWithTheFormatterOnEveryVariantOfTheCommonForm() {
        List<String> pieces = List.of("2025", "1999", "0000", "-", "12", "02", "29", "30", "31", "00", "24", "59", "60",
                "T", " ", ":", ".", "5", "123456", "1234567891", "Z", "+01:00", "-05:30", "+18:00", "+18:30", "+1:00", "x");
        Random random = new Random(11);
        for (int i = 0; i < 200_000; i++) {
            String value = i % 2 == 0 ? mutated(random, pieces) : random(random, pieces);
            assertEquals(byFormatter(value), Timestamps.parseOrNull(value), value);
        }
    }

    /** A well-formed value with one piece replaced. */
    private static String mutated(Random random, List<String> pieces) {
        String[] parts = {"2024", "-", "02", "-", "29", "T", "23", ":", "59", ":", "59", ".", "123456", "+01:00"};
        parts[random.nextInt(parts.length)] = pieces.get(random.nextInt(pieces.size()));
        if (random.nextBoolean()) {
            parts[parts.length - 1] = random.nextBoolean() ? "Z" : "";
        }
        return String.join("", parts);
    }

    private static String random(Random random, List<String> pieces) {
        StringBuilder value = new StringBuilder();
        for (int i = random.nextInt(14); i > 0; i--) {
            value.append(pieces.get(random.nextInt(pieces.size())));
        }
        return value.toString();
    }

    private static OffsetDateTime byFormatter(String value) {
        String text = value.length() > 10 && value.charAt(10) == ' ' ? value.substring(0, 10) + 'T' + value.substring(11) : value;
        try {
            TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
            OffsetDateTime instant = parsed instanceof OffsetDateTime withOffset ? withOffset
                    : ((LocalDateTime) parsed).atOffset(ZoneOffset.UTC);
            return instant.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
