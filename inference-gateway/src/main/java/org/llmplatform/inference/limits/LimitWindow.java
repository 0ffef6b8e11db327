package org.llmplatform.inference.limits;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** The fixed windows use is counted in, all in UTC: a minute, a day, a calendar month. */
public enum LimitWindow {
    MINUTE("minute", "per min", "PM"),
    DAY("day", "per day", "PD"),
    MONTH("month", "per month", "PMo");

    private final String wireName;
    private final String phrase;
    private final String abbreviation;

    LimitWindow(String wireName, String phrase, String abbreviation) {
        this.wireName = wireName;
        this.phrase = phrase;
        this.abbreviation = abbreviation;
    }

    public String wireName() {
        return wireName;
    }

    /** OpenAI's name of a limit in this window: "tokens per min (TPM)". */
    String limitName(String unit) {
        return unit + " " + phrase + " (" + Character.toUpperCase(unit.charAt(0)) + abbreviation + ")";
    }

    public Instant start(Instant at) {
        return switch (this) {
            case MINUTE -> at.truncatedTo(ChronoUnit.MINUTES);
            case DAY -> at.truncatedTo(ChronoUnit.DAYS);
            case MONTH -> LocalDate.ofInstant(at, ZoneOffset.UTC).withDayOfMonth(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        };
    }

    public Instant end(Instant at) {
        Instant start = start(at);
        return switch (this) {
            case MINUTE -> start.plus(1, ChronoUnit.MINUTES);
            case DAY -> start.plus(1, ChronoUnit.DAYS);
            case MONTH -> LocalDate.ofInstant(start, ZoneOffset.UTC).plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        };
    }

    static LimitWindow fromWire(String name) {
        for (LimitWindow window : values()) {
            if (window.wireName.equals(name)) {
                return window;
            }
        }
        throw new IllegalArgumentException("no limit window " + name);
    }
}
