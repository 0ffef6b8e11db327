package org.llmplatform.tracing.stats;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The time buckets of a stats request, as the reference cuts them: {@code granularity} seconds from the Unix epoch
 * (ClickHouse's {@code toStartOfInterval(t, INTERVAL n SECOND, tz)}: the timezone names the buckets, it does not move
 * them), from the bucket holding {@code start} to the last one starting before {@code end}.
 */
record StatsBuckets(Instant start, Instant end, long granularity, ZoneId zone) {

    /** The most buckets one answer has; a finer granularity is coarsened to fit. */
    static final long MAX_BUCKETS = 10_000;

    private static final DateTimeFormatter WITH_OFFSET = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    /** The reference's granularity when the request names none: 5 min up to 2 h, 1 h up to 12 h, 6 h up to 3 days, 12 h up to 14 days, else 1 day. */
    static long automaticGranularity(Duration range) {
        long seconds = range.getSeconds();
        if (seconds <= 2 * 3600) {
            return 300;
        } else if (seconds <= 12 * 3600) {
            return 3600;
        } else if (seconds <= 3 * 86400) {
            return 6 * 3600;
        } else if (seconds <= 14 * 86400) {
            return 12 * 3600;
        }
        return 86400;
    }

    /** {@code granularity}, or the smallest one that keeps the range within {@link #MAX_BUCKETS} buckets. */
    static long capped(long granularity, Duration range) {
        double rangeSeconds = range.toNanos() / 1e9;
        if (rangeSeconds / granularity <= MAX_BUCKETS) {
            return granularity;
        }
        return Math.max(granularity, (long) (rangeSeconds / MAX_BUCKETS) + 1);
    }

    /** The epoch second the first bucket starts at. */
    long firstBucket() {
        return Math.floorDiv(start.getEpochSecond(), granularity) * granularity;
    }

    /** How many buckets start before {@code end}. */
    long count() {
        long first = firstBucket();
        long endSecond = end.getEpochSecond() + (end.getNano() > 0 ? 1 : 0);
        return endSecond <= first ? 0 : (endSecond - first + granularity - 1) / granularity;
    }

    /** A bucket's start in the request's timezone, as the reference prints it ({@code Z} for a zero offset). */
    String label(long epochSecond) {
        String text = WITH_OFFSET.format(Instant.ofEpochSecond(epochSecond).atZone(zone).toOffsetDateTime());
        return text.endsWith("+00:00") ? text.substring(0, text.length() - 6) + "Z" : text;
    }
}
