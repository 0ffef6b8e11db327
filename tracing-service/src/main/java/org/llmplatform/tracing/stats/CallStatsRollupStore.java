package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;
import org.llmplatform.tracing.stats.StatsMetric.Column;

/**
 * calls/stats from the hourly rollup of migrations V22 and V25 (docs/tracing-service.md#call-stats-rollup), for every
 * call or for the trace roots alone: the range's whole
 * UTC hours from {@code tracing.call_stats_hours} / {@code tracing.usage_stats_hours}, its partial first and last hours
 * from the calls through the functions that fill the rollup, merged into buckets of whole hours. Only what the rollup
 * answers exactly (or, for latency percentiles, within {@link LatencyHistogram#RELATIVE_ERROR}) is asked of it.
 */
@ApplicationScoped
public class CallStatsRollupStore {

    private static final long HOUR = 3600;
    private static final Set<String> TOKEN_SUMS = Set.of("sum", "avg", "count");

    private final ObjectMapper json;
    private final CallStatsStore rows;

    public CallStatsRollupStore(ObjectMapper json, CallStatsStore rows) {
        this.json = json;
        this.rows = rows;
    }

    /** Whether buckets of these metrics can be read from the rollup: buckets of whole hours, columns it keeps. */
    static boolean answers(StatsBuckets buckets, List<StatsMetric> callMetrics, List<StatsMetric> usageMetrics) {
        if (buckets.granularity() % HOUR != 0) {
            return false;
        }
        for (StatsMetric metric : usageMetrics) {
            for (Column column : metric.columns()) {
                boolean tokens = !StatsPrices.PRICED.contains(metric.name())
                        && TOKEN_SUMS.stream().anyMatch(aggregation -> column.alias().equals(aggregation + "_" + metric.name()));
                if (!tokens && !StatsPrices.priced(metric, column)) {
                    return false;
                }
            }
        }
        for (StatsMetric metric : callMetrics) {
            boolean exactOnly = switch (metric.name()) {
                case "latency_ms" -> metric.aggregations().stream().anyMatch(a -> a.equals("min") || a.equals("max"));
                case "error_count" -> !metric.percentiles().isEmpty();
                default -> false;
            };
            if (exactOnly) {
                return false;
            }
        }
        return true;
    }

    /** The call buckets; empty when a latency percentile is asked of a range holding a negative latency. */
    Uni<Optional<List<ObjectNode>>> callBuckets(String project, boolean rootsOnly, StatsBuckets buckets,
            List<StatsMetric> metrics) {
        SqlParams params = new SqlParams();
        String sql = """
                WITH buckets AS (%s)%s,
                hours AS (
                    SELECT hour, calls, errors, ended, latency_sum, negative_latencies, latency_histogram
                    FROM tracing.call_stats_hours WHERE %s%s),
                per_hour AS (SELECT %s AS bucket, hours.* FROM hours),
                aggregated AS (
                    SELECT bucket, sum(calls) AS calls, sum(errors) AS errors, sum(ended) AS ended,
                        sum(latency_sum) AS latency_sum, sum(negative_latencies) AS negative_latencies
                    FROM per_hour GROUP BY 1)
                SELECT buckets.bucket, coalesce(a.calls, 0)::bigint AS calls, coalesce(a.errors, 0)::bigint AS errors,
                    coalesce(a.ended, 0)::bigint AS ended, coalesce(a.latency_sum, 0)::bigint AS latency_sum,
                    (a.latency_sum / nullif(a.ended, 0))::float8 AS latency_avg,
                    (a.errors / nullif(a.calls, 0))::float8 AS error_avg,
                    coalesce(a.negative_latencies, 0)::bigint AS negative_latencies, h.latency_histogram
                FROM buckets LEFT JOIN aggregated a ON a.bucket = buckets.bucket
                LEFT JOIN per_hour h ON h.bucket = buckets.bucket
                ORDER BY buckets.bucket""".formatted(buckets.seriesSql(params),
                edgeCalls(params, project, rootsOnly, buckets), wholeHours(params, project, rootsOnly, buckets),
                edgeHours(buckets, """

                    UNION ALL
                    SELECT d.hour, d.calls, d.errors, d.ended, d.latency_sum, d.negative_latencies, d.latency_histogram
                    FROM edge, tracing.call_stats_of(edge.projects, edge.started, edge.ended, edge.failed, edge.roots,
                        edge.signs) d"""),
                bucketOfHour(params, buckets));
        boolean percentiles = metrics.stream().anyMatch(m -> m.name().equals("latency_ms") && !m.percentiles().isEmpty());
        return rows.withoutJit(new SqlStatement(sql, params.values())).map(rowSet -> {
            List<ObjectNode> answer = new ArrayList<>();
            Row bucketRow = null; // one row per hour of the bucket, its counts repeated on each
            long[] histogram = new long[0];
            for (Row row : rowSet) {
                if (percentiles && row.getLong("negative_latencies") != 0) {
                    return Optional.empty();
                }
                if (bucketRow != null && bucketRow.getLong("bucket").longValue() != row.getLong("bucket").longValue()) {
                    answer.add(callBucket(buckets, metrics, bucketRow, histogram));
                    histogram = new long[0];
                }
                bucketRow = row;
                histogram = plus(histogram, row.getArrayOfLongs("latency_histogram"));
            }
            if (bucketRow != null) {
                answer.add(callBucket(buckets, metrics, bucketRow, histogram));
            }
            return Optional.of(answer);
        });
    }

    /**
     * A bucket's histogram merged with one of its hours'. Merged here: V22's aggregate {@code histogram_sum} (dropped
     * by V27) added the counts one by one in PL/pgSQL, about 90 ms for 720 hours of a million calls.
     */
    private static long[] plus(long[] histogram, Long[] hour) {
        if (hour == null) {
            return histogram;
        }
        long[] sum = hour.length > histogram.length ? Arrays.copyOf(histogram, hour.length) : histogram;
        for (int i = 0; i < hour.length; i++) {
            sum[i] += hour[i];
        }
        return sum;
    }

    Uni<List<ObjectNode>> usageBuckets(String project, boolean rootsOnly, StatsBuckets buckets, List<StatsMetric> metrics) {
        SqlParams params = new SqlParams();
        boolean priced = StatsPrices.anyPriced(metrics);
        List<String> columns = new ArrayList<>();
        for (StatsMetric metric : metrics) {
            for (Column column : metric.columns()) {
                columns.add(StatsPrices.priced(metric, column) ? StatsPrices.column(metric) : tokenColumn(metric, column));
            }
        }
        String sql = """
                WITH buckets AS (%s)%s,
                hours AS (
                    SELECT hour, model, pairs, input_tokens, output_tokens, total_tokens, total_tokens_count,
                        cache_read_input_tokens, cache_read_input_tokens_count, cache_creation_input_tokens,
                        cache_creation_input_tokens_count
                    FROM tracing.usage_stats_hours WHERE %s%s),
                aggregated AS (
                    SELECT %s AS bucket, model, sum(pairs)::bigint AS count,
                        sum(input_tokens)::float8 AS input_tokens, sum(output_tokens)::float8 AS output_tokens,
                        sum(total_tokens)::float8 AS total_tokens, sum(total_tokens_count)::bigint AS total_tokens_count,
                        sum(cache_read_input_tokens)::float8 AS cache_read_input_tokens,
                        sum(cache_read_input_tokens_count)::bigint AS cache_read_input_tokens_count,
                        sum(cache_creation_input_tokens)::float8 AS cache_creation_input_tokens,
                        sum(cache_creation_input_tokens_count)::bigint AS cache_creation_input_tokens_count,
                        sum(input_tokens)::float8 AS %s, sum(output_tokens)::float8 AS %s
                    FROM hours GROUP BY 1, 2 HAVING sum(pairs) > 0),
                %s""".formatted(buckets.seriesSql(params), edgeCalls(params, project, rootsOnly, buckets),
                wholeHours(params, project, rootsOnly, buckets), edgeHours(buckets, """

                    UNION ALL
                    SELECT d.hour, d.model, d.pairs, d.input_tokens, d.output_tokens, d.total_tokens, d.total_tokens_count,
                        d.cache_read_input_tokens, d.cache_read_input_tokens_count, d.cache_creation_input_tokens,
                        d.cache_creation_input_tokens_count
                    FROM edge, tracing.usage_stats_of(edge.projects, edge.started, edge.usages, edge.roots, edge.signs) d"""),
                bucketOfHour(params, buckets), StatsPrices.INPUT_TOKENS,
                StatsPrices.OUTPUT_TOKENS, CallStatsStore.everyBucketOfEveryModel(String.join(", ", columns), priced, params,
                        project));
        return rows.run(new SqlStatement(sql, params.values()), buckets, metrics, true);
    }

    /**
     * {@code , edge AS (…)}: the visible calls of the range's partial first and last hours, as the arrays the rollup's
     * functions take; nothing for a range of whole hours, which reads no call. A range within one hour is all edge.
     */
    private static String edgeCalls(SqlParams params, String project, boolean rootsOnly, StatsBuckets buckets) {
        Hours hours = Hours.of(buckets);
        if (!hours.partial(buckets)) {
            return "";
        }
        return """
                ,
                edge AS (
                    SELECT array_agg(c.project_id) AS projects, array_agg(c.started_at) AS started,
                        array_agg(c.ended_at) AS ended, array_agg(c.exception IS NOT NULL) AS failed,
                        array_agg(c.summary -> 'usage') AS usages, array_agg(c.parent_id IS NULL) AS roots,
                        array_agg(1) AS signs
                    FROM tracing.calls c
                    WHERE c.project_id = %s AND c.started_at IS NOT NULL AND c.deleted_at IS NULL%s
                        AND ((c.started_at >= %s AND c.started_at < %s) OR (c.started_at >= %s AND c.started_at < %s)))"""
                .formatted(params.bind(project, "text"), rootsOnly ? " AND c.parent_id IS NULL" : "",
                        time(params, buckets.start()), time(params, hours.leadingEnd()),
                        time(params, hours.trailingStart()), time(params, buckets.end()));
    }

    /** {@code union}, the rows of the edge's calls, when the range has partial hours. */
    private static String edgeHours(StatsBuckets buckets, String union) {
        return Hours.of(buckets).partial(buckets) ? union : "";
    }

    /** The rows of the range's whole hours: both kinds for every call, the roots' alone for the trace roots. */
    private static String wholeHours(SqlParams params, String project, boolean rootsOnly, StatsBuckets buckets) {
        Hours hours = Hours.of(buckets);
        return "project_id = " + params.bind(project, "text") + " AND hour >= " + params.bind(hours.from(), "bigint")
                + " AND hour < " + params.bind(hours.to(), "bigint") + (rootsOnly ? " AND root" : "");
    }

    private static String bucketOfHour(SqlParams params, StatsBuckets buckets) {
        String granularity = params.bind(buckets.granularity(), "bigint");
        return "floor(hour / " + granularity + "::numeric)::bigint * " + granularity;
    }

    private static String time(SqlParams params, Instant instant) {
        return params.bind(OffsetDateTime.ofInstant(instant, ZoneOffset.UTC), "timestamptz");
    }

    /** The range's whole hours {@code [from, to)} (epoch seconds) and its partial edges before and after them. */
    private record Hours(long from, long to, Instant leadingEnd, Instant trailingStart) {

        static Hours of(StatsBuckets buckets) {
            long from = Math.floorDiv(buckets.start().getEpochSecond() + HOUR - 1 + (buckets.start().getNano() > 0 ? 1 : 0),
                    HOUR) * HOUR;
            long to = Math.floorDiv(buckets.end().getEpochSecond(), HOUR) * HOUR;
            if (from >= to) {
                return new Hours(0, 0, buckets.end(), buckets.end());
            }
            return new Hours(from, to, Instant.ofEpochSecond(from), Instant.ofEpochSecond(to));
        }

        boolean partial(StatsBuckets buckets) {
            return buckets.start().isBefore(leadingEnd) || trailingStart.isBefore(buckets.end());
        }
    }

    private static String tokenColumn(StatsMetric metric, Column column) {
        String sum = "aggregated." + metric.name();
        String count = switch (metric.name()) {
            case "input_tokens", "output_tokens" -> "aggregated.count";
            default -> "aggregated." + metric.name() + "_count";
        };
        String value;
        if (column.alias().startsWith("sum_")) {
            value = sum;
        } else if (column.alias().startsWith("avg_")) {
            value = sum + " / nullif(" + count + ", 0)::float8";
        } else {
            value = count;
        }
        return "coalesce(" + value + ", 0) AS \"" + column.alias() + "\"";
    }

    /**
     * A call bucket's columns from its counts and its latency histogram, as the exact statement's aggregates over its
     * calls would give them.
     */
    private ObjectNode callBucket(StatsBuckets buckets, List<StatsMetric> metrics, Row row, long[] counts) {
        long calls = row.getLong("calls");
        long errors = row.getLong("errors");
        ObjectNode bucket = json.createObjectNode();
        bucket.put("timestamp", buckets.label(row.getLong("bucket")));
        for (StatsMetric metric : metrics) {
            for (String aggregation : metric.aggregations()) {
                String alias = aggregation + "_" + metric.name();
                Object value = switch (metric.name()) {
                    case "latency_ms" -> switch (aggregation) {
                        case "sum" -> row.getLong("latency_sum");
                        case "avg" -> orZero(row.getDouble("latency_avg"));
                        case "count" -> row.getLong("ended");
                        case "count_true" -> counts.length > 1 ? counts[1] : 0L;
                        case "count_false" -> counts.length > 0 ? counts[0] : 0L;
                        default -> throw new IllegalArgumentException(alias);
                    };
                    case "call_count" -> switch (aggregation) {
                        case "sum", "count", "count_true" -> calls;
                        case "avg" -> calls > 0 ? 1.0 : 0.0;
                        case "min", "max" -> calls > 0 ? 1L : null;
                        case "count_false" -> 0L;
                        default -> throw new IllegalArgumentException(alias);
                    };
                    case "error_count" -> switch (aggregation) {
                        case "sum", "count_true" -> errors;
                        case "avg" -> orZero(row.getDouble("error_avg"));
                        case "min" -> calls > 0 ? (errors == calls ? 1L : 0L) : null;
                        case "max" -> calls > 0 ? (errors > 0 ? 1L : 0L) : null;
                        case "count" -> calls;
                        case "count_false" -> calls - errors;
                        default -> throw new IllegalArgumentException(alias);
                    };
                    default -> throw new IllegalArgumentException(metric.name());
                };
                put(bucket, alias, value);
            }
            for (double percentile : metric.percentiles()) {
                double fraction = Math.round(percentile / 100.0 * 1e6) / 1e6;
                Double value = metric.name().equals("latency_ms") ? LatencyHistogram.percentile(counts, fraction)
                        : calls > 0 ? 1.0 : null;
                put(bucket, "p" + StatsMetric.percentileLabel(percentile) + "_" + metric.name(), value);
            }
        }
        bucket.put("count", calls);
        return bucket;
    }

    private static Double orZero(Double value) {
        return value == null ? 0.0 : value;
    }

    private static void put(ObjectNode bucket, String alias, Object value) {
        if (value == null) {
            bucket.putNull(alias);
        } else if (value instanceof Double number) {
            bucket.put(alias, number);
        } else {
            bucket.put(alias, (Long) value);
        }
    }
}
