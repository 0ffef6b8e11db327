package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;
import org.llmplatform.tracing.stats.StatsMetric.Column;

/**
 * The SQL of {@code calls/stats} (docs/tracing-service.md#call-stats): the visible calls started in the range, one
 * value per call (call metrics) or per call and model of {@code summary.usage} (usage metrics), aggregated per bucket
 * in PostgreSQL; every bucket of the range is answered, an empty one with 0 for sums, averages and counts and null
 * for minimum, maximum and percentiles.
 */
@ApplicationScoped
public class CallStatsStore {

    private final Pool pool;
    private final ObjectMapper json;

    public CallStatsStore(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    Uni<List<ObjectNode>> callBuckets(String project, CallFilter filter, StatsBuckets buckets, List<StatsMetric> metrics) {
        return run(callMetricsSql(project, filter, buckets, metrics), buckets, metrics, false);
    }

    Uni<List<ObjectNode>> usageBuckets(String project, CallFilter filter, StatsBuckets buckets, List<StatsMetric> metrics) {
        return run(usageMetricsSql(project, filter, buckets, metrics), buckets, metrics, true);
    }

    static SqlStatement callMetricsSql(String project, CallFilter filter, StatsBuckets buckets, List<StatsMetric> metrics) {
        SqlParams params = new SqlParams();
        String bucketSeries = buckets.seriesSql(params);
        String calls = visibleCalls(params, project, filter, buckets);
        List<String> values = new ArrayList<>();
        for (StatsMetric metric : metrics) {
            values.add(switch (metric.name()) {
                // dateDiff('millisecond', started_at, ended_at): whole milliseconds crossed; null while running.
                case "latency_ms" -> "tracing.stats_latency_ms(c.started_at, c.ended_at) AS m_latency_ms";
                case "call_count" -> "1 AS m_call_count";
                case "error_count" -> "CASE WHEN c.exception IS NOT NULL THEN 1 ELSE 0 END AS m_error_count";
                default -> throw new IllegalArgumentException(metric.name());
            });
        }
        String sql = """
                WITH buckets AS (%s),
                per_call AS (
                    SELECT %s AS bucket, %s
                    FROM tracing.calls c
                    WHERE %s),
                aggregated AS (
                    SELECT bucket, %s, count(*) AS count FROM per_call GROUP BY bucket)
                SELECT buckets.bucket, %s, coalesce(aggregated.count, 0) AS count
                FROM buckets LEFT JOIN aggregated ON aggregated.bucket = buckets.bucket
                ORDER BY buckets.bucket""".formatted(bucketSeries, buckets.bucketOfSql(params, "c.started_at"), String.join(", ", values), calls,
                String.join(", ", aggregates(metrics)), outerColumns(metrics));
        return new SqlStatement(sql, params.values());
    }

    static SqlStatement usageMetricsSql(String project, CallFilter filter, StatsBuckets buckets, List<StatsMetric> metrics) {
        SqlParams params = new SqlParams();
        String bucketSeries = buckets.seriesSql(params);
        String calls = visibleCalls(params, project, filter, buckets);
        List<String> values = new ArrayList<>();
        for (StatsMetric metric : metrics) {
            values.add(switch (metric.name()) {
                case "input_tokens" -> INPUT_TOKENS + " AS m_input_tokens";
                case "output_tokens" -> OUTPUT_TOKENS + " AS m_output_tokens";
                default -> number(metric.name()) + " AS m_" + metric.name();
            });
        }
        boolean priced = StatsPrices.anyPriced(metrics);
        List<String> aggregates = new ArrayList<>(List.of(aggregates(metrics)));
        if (priced) {
            values.add(INPUT_TOKENS + " AS priced_input, " + OUTPUT_TOKENS + " AS priced_output");
            aggregates.add("sum(priced_input)::float8 AS " + StatsPrices.INPUT_TOKENS + ", sum(priced_output)::float8 AS "
                    + StatsPrices.OUTPUT_TOKENS);
        }
        String sql = """
                WITH buckets AS (%s),
                per_call AS (
                    SELECT %s AS bucket, u.key AS model, %s
                    FROM tracing.calls c
                    CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c.summary -> 'usage') = 'object'
                        THEN c.summary -> 'usage' ELSE '{}' END) u
                    WHERE %s),
                aggregated AS (
                    SELECT bucket, model, %s, count(*) AS count FROM per_call GROUP BY bucket, model),
                %s""".formatted(bucketSeries, buckets.bucketOfSql(params, "c.started_at"),
                String.join(", ", values), calls, String.join(", ", aggregates),
                everyBucketOfEveryModel(outerColumns(metrics), priced, params, project));
        return new SqlStatement(sql, params.values());
    }

    /**
     * The end of a usage statement after its {@code buckets} and {@code aggregated} (bucket, model, sums, count): a row
     * for every bucket and every model the range has, with {@code columns} over {@code aggregated} (null where the
     * bucket has no call of the model) and, when {@code priced}, the model's price at the bucket's start from the
     * project's price book ({@link StatsPrices#priceJoin}). The grid is a materialized CTE so that PostgreSQL hashes the join on both keys:
     * inlined, it estimated 200 models, merge-joined on the model alone and filtered 1.5 million pairs by bucket (380 ms
     * of a 385 ms statement over 720 hours and 3 models).
     */
    static String everyBucketOfEveryModel(String columns, boolean priced, SqlParams params, String project) {
        return """
                models AS (SELECT DISTINCT model FROM aggregated),
                grid AS MATERIALIZED (SELECT buckets.bucket, models.model FROM buckets CROSS JOIN models)%s
                SELECT grid.bucket, grid.model, %s, coalesce(aggregated.count, 0) AS count
                FROM grid
                LEFT JOIN aggregated ON aggregated.bucket = grid.bucket AND aggregated.model = grid.model%s
                ORDER BY grid.bucket, grid.model COLLATE "C"
                """.formatted(priced ? StatsPrices.bookCte(params, project) : "", columns, priced ? StatsPrices.priceJoin() : "");
    }

    /** Runs a statement answering one bucket (and model) a row, with a column per metric column and {@code count}. */
    Uni<List<ObjectNode>> run(SqlStatement statement, StatsBuckets buckets, List<StatsMetric> metrics,
            boolean byModel) {
        return withoutJit(statement).map(rows -> {
            List<ObjectNode> answer = new ArrayList<>(rows.size());
            for (Row row : rows) {
                ObjectNode bucket = json.createObjectNode();
                bucket.put("timestamp", buckets.label(row.getLong("bucket")));
                if (byModel) {
                    bucket.put("model", row.getString("model"));
                }
                for (StatsMetric metric : metrics) {
                    for (Column column : metric.columns()) {
                        Object value = row.getValue(column.alias());
                        if (value == null) {
                            bucket.putNull(column.alias());
                        } else if (value instanceof Double number) {
                            bucket.put(column.alias(), number);
                        } else {
                            bucket.put(column.alias(), ((Number) value).longValue());
                        }
                    }
                }
                bucket.put("count", row.getLong("count"));
                answer.add(bucket);
            }
            return answer;
        });
    }

    /**
     * Runs a statement with PostgreSQL's JIT off: over a large project the planner's estimates pass the JIT's
     * thresholds, and compiling these statements' expressions took seconds (5 s for the rollup's call buckets on
     * the loaded 2-core machine) against milliseconds of execution.
     */
    Uni<RowSet<Row>> withoutJit(SqlStatement statement) {
        return pool.withTransaction(connection -> connection.query("SET LOCAL jit = off").execute()
                .chain(() -> connection.preparedQuery(statement.sql()).execute(Tuple.from(statement.params()))));
    }

    /** The visible calls of the project started in {@code [start, end)} that the filter keeps (the reference's stats filter). */
    private static String visibleCalls(SqlParams params, String project, CallFilter filter, StatsBuckets buckets) {
        List<String> conditions = new ArrayList<>(List.of("c.project_id = " + params.bind(project, "text"),
                "c.started_at IS NOT NULL", "c.deleted_at IS NULL",
                "c.started_at >= " + params.bind(OffsetDateTime.ofInstant(buckets.start(), ZoneOffset.UTC), "timestamptz"),
                "c.started_at < " + params.bind(OffsetDateTime.ofInstant(buckets.end(), ZoneOffset.UTC), "timestamptz")));
        anyOf(conditions, params, "c.op_name", filter.opNames());
        anyOf(conditions, params, "c.trace_id", filter.traceIds());
        anyOf(conditions, params, "c.id", filter.callIds());
        anyOf(conditions, params, "c.parent_id", filter.parentIds());
        anyOf(conditions, params, "c.svc_user_id", filter.svcUserIds());
        anyOf(conditions, params, "c.svc_run_id", filter.svcRunIds());
        if (Boolean.TRUE.equals(filter.traceRootsOnly())) {
            conditions.add("c.parent_id IS NULL");
        }
        return String.join(" AND ", conditions);
    }

    private static void anyOf(List<String> conditions, SqlParams params, String column, List<String> values) {
        if (values != null && !values.isEmpty()) {
            conditions.add(column + " = ANY(" + params.bind(values.toArray(String[]::new), "text[]") + ")");
        }
    }

    // Providers name the same counts differently: input is prompt_tokens + input_tokens, output is
    // completion_tokens + output_tokens; only JSON numbers count (ClickHouse's toFloat64OrNull of the raw value).
    private static final String INPUT_TOKENS = "coalesce(" + number("prompt_tokens") + ", 0) + coalesce(" + number("input_tokens")
            + ", 0)";
    private static final String OUTPUT_TOKENS = "coalesce(" + number("completion_tokens") + ", 0) + coalesce("
            + number("output_tokens") + ", 0)";

    private static String number(String key) {
        return "CASE WHEN jsonb_typeof(u.value -> '" + key + "') = 'number' THEN (u.value ->> '" + key + "')::float8 END";
    }

    /** The aggregates of the columns over the calls ({@code 1 AS no_column} when every column is priced). */
    private static String[] aggregates(List<StatsMetric> metrics) {
        List<String> aggregates = new ArrayList<>();
        for (StatsMetric metric : metrics) {
            for (Column column : metric.columns()) {
                if (!StatsPrices.priced(metric, column)) {
                    aggregates.add(column.aggregateSql() + " AS \"" + column.alias() + "\"");
                }
            }
        }
        return aggregates.isEmpty() ? new String[] {"1 AS no_column"} : aggregates.toArray(String[]::new);
    }

    private static String outerColumns(List<StatsMetric> metrics) {
        List<String> columns = new ArrayList<>();
        for (StatsMetric metric : metrics) {
            for (Column column : metric.columns()) {
                if (StatsPrices.priced(metric, column)) {
                    columns.add(StatsPrices.column(metric));
                    continue;
                }
                String quoted = "\"" + column.alias() + "\"";
                columns.add((column.zeroWhenEmpty() ? "coalesce(aggregated." + quoted + ", 0)" : "aggregated." + quoted)
                        + " AS " + quoted);
            }
        }
        return String.join(", ", columns);
    }
}
