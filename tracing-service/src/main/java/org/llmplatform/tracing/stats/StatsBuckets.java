package org.llmplatform.tracing.stats;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.query.SqlParams;

/**
 * The time buckets of a stats request, as the reference cuts them: {@code granularity} seconds from the Unix epoch
 * (ClickHouse's {@code toStartOfInterval(t, INTERVAL n SECOND, tz)}: the timezone names the buckets, it does not move
 * them), from the bucket holding {@code start} to the last one starting before {@code end}.
 */
public record StatsBuckets(Instant start, Instant end, long granularity, ZoneId zone) {

    /** The most buckets one answer has; a finer granularity is coarsened to fit. */
    public static final long MAX_BUCKETS = 10_000;

    private static final DateTimeFormatter WITH_OFFSET = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    /** The reference's granularity when the request names none: 5 min up to 2 h, 1 h up to 12 h, 6 h up to 3 days, 12 h up to 14 days, else 1 day. */
    public static long automaticGranularity(Duration range) {
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
    public static long capped(long granularity, Duration range) {
        double rangeSeconds = range.toNanos() / 1e9;
        if (rangeSeconds / granularity <= MAX_BUCKETS) {
            return granularity;
        }
        return Math.max(granularity, (long) (rangeSeconds / MAX_BUCKETS) + 1);
    }

    /** The IANA zone of a request's {@code timezone} field; an unknown one is a 422 naming the field. */
    public static ZoneId zone(String timezone) {
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw ApiException.invalidField("value_error", List.of("body", "timezone"),
                    "Value error, unknown IANA timezone: " + timezone, timezone);
        }
    }

    /** The epoch second the first bucket starts at. */
    public long firstBucket() {
        return Math.floorDiv(start.getEpochSecond(), granularity) * granularity;
    }

    /** How many buckets start before {@code end}. */
    public long count() {
        long first = firstBucket();
        long endSecond = end.getEpochSecond() + (end.getNano() > 0 ? 1 : 0);
        return endSecond <= first ? 0 : (endSecond - first + granularity - 1) / granularity;
    }

    /** A bucket's start in the request's timezone, as the reference prints it ({@code Z} for a zero offset). */
    public String label(long epochSecond) {
        String text = WITH_OFFSET.format(Instant.ofEpochSecond(epochSecond).atZone(zone).toOffsetDateTime());
        return text.endsWith("+00:00") ? text.substring(0, text.length() - 6) + "Z" : text;
    }

    /** SQL of every bucket's start (epoch seconds, column {@code bucket}) from the first to the last. */
    public String seriesSql(SqlParams params) {
        long last = firstBucket() + (count() - 1) * granularity;
        return "SELECT generate_series(" + params.bind(firstBucket(), "bigint") + ", " + params.bind(last, "bigint") + ", "
                + params.bind(granularity, "bigint") + ") AS bucket";
    }

    /** SQL of the start (epoch seconds) of the bucket holding the timestamp {@code column}. */
    public String bucketOfSql(SqlParams params, String column) {
        String size = params.bind(granularity, "bigint");
        return "floor(extract(epoch FROM " + column + ") / " + size + ")::bigint * " + size;
    }
}
