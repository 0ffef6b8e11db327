package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateBucket;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;
import org.llmplatform.tracing.stats.StatsBuckets;
import org.llmplatform.tracing.stats.StatsMetric.Column;

/** The SQL of {@code feedback/stats}, {@code feedback/payload_schema} and {@code feedback/aggregate}. */
@ApplicationScoped
public class FeedbackStatsStore {

    private final Pool pool;
    private final ObjectMapper json;

    public FeedbackStatsStore(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /**
     * Every bucket of the range with its aggregates and {@code count} (feedback rows in the bucket); an empty bucket,
     * or one whose rows hold no value, has 0 for sums, averages and counts and null for the others.
     */
    Uni<List<ObjectNode>> buckets(FeedbackWindow window, StatsBuckets buckets, List<FeedbackMetric> metrics) {
        SqlParams params = new SqlParams();
        String series = buckets.seriesSql(params);
        String bucketOf = buckets.bucketOfSql(params, "f.created_at");
        String values = String.join(", ", metrics.stream().map(metric -> metric.valueSql(params)).toList());
        String where = window.whereSql(params);
        List<String> aggregates = new ArrayList<>();
        List<String> outer = new ArrayList<>();
        for (Column column : columns(metrics)) {
            String quoted = "\"" + column.alias() + "\"";
            aggregates.add(column.aggregateSql() + " AS " + quoted);
            outer.add((column.zeroWhenEmpty() ? "coalesce(aggregated." + quoted + ", 0)" : "aggregated." + quoted) + " AS "
                    + quoted);
        }
        String sql = """
                WITH buckets AS (%s),
                per_row AS (SELECT %s AS bucket, %s FROM tracing.feedback f WHERE %s),
                aggregated AS (SELECT bucket, %s, count(*) AS count FROM per_row GROUP BY bucket)
                SELECT buckets.bucket, %s, coalesce(aggregated.count, 0) AS count
                FROM buckets LEFT JOIN aggregated ON aggregated.bucket = buckets.bucket
                ORDER BY buckets.bucket""".formatted(series, bucketOf, values, where, String.join(", ", aggregates),
                String.join(", ", outer));
        return rows(new SqlStatement(sql, params.values())).map(rows -> {
            List<ObjectNode> answer = new ArrayList<>(rows.size());
            for (Row row : rows) {
                ObjectNode bucket = json.createObjectNode();
                bucket.put("timestamp", buckets.label(row.getLong("bucket")));
                for (Column column : columns(metrics)) {
                    Object value = row.getValue(column.alias());
                    if (value == null) {
                        bucket.putNull(column.alias());
                    } else if (value instanceof Double number) {
                        bucket.put(column.alias(), number);
                    } else {
                        bucket.put(column.alias(), ((Number) value).longValue());
                    }
                }
                bucket.put("count", row.getLong("count"));
                answer.add(bucket);
            }
            return answer;
        });
    }

    /**
     * The aggregates over the whole window, keyed by metric slug and then aggregation ({@code avg}, {@code p95}…), every
     * value a number with a fraction; a metric without any value has null (0 for {@code count_true}/{@code count_false}).
     */
    Uni<ObjectNode> windowStats(FeedbackWindow window, List<FeedbackMetric> metrics) {
        SqlParams params = new SqlParams();
        String values = String.join(", ", metrics.stream().map(metric -> metric.valueSql(params)).toList());
        String where = window.whereSql(params);
        List<String> aggregates = new ArrayList<>();
        for (Column column : columns(metrics)) {
            String aggregate = column.aggregateSql();
            // The reference's window query has no COALESCE: count of nothing is null, as ClickHouse's countOrNull.
            boolean countOfValues = column.alias().startsWith("count_") && !column.alias().startsWith("count_true_")
                    && !column.alias().startsWith("count_false_");
            aggregates.add((countOfValues ? "nullif(" + aggregate + ", 0)" : aggregate) + " AS \"" + column.alias() + "\"");
        }
        String sql = "SELECT " + String.join(", ", aggregates) + " FROM (SELECT " + values + " FROM tracing.feedback f WHERE "
                + where + ") per_row";
        return rows(new SqlStatement(sql, params.values())).map(rows -> {
            Row row = rows.iterator().next();
            ObjectNode stats = json.createObjectNode();
            for (FeedbackMetric metric : metrics) {
                ObjectNode metricStats = stats.has(metric.stats().name()) ? (ObjectNode) stats.get(metric.stats().name())
                        : stats.putObject(metric.stats().name());
                for (Column column : metric.stats().columns()) {
                    Object value = row.getValue(column.alias());
                    String key = column.alias().substring(0, column.alias().length() - metric.stats().name().length() - 1);
                    if (value == null) {
                        metricStats.putNull(key);
                    } else {
                        metricStats.put(key, ((Number) value).doubleValue());
                    }
                }
            }
            return stats;
        });
    }

    /** The payload JSON of the newest row of each {@code trigger_ref} (no ref is one), at most {@code limit} of them. */
    Uni<List<String>> payloadSamples(FeedbackWindow window, long limit) {
        SqlParams params = new SqlParams();
        String where = window.whereSql(params);
        String sql = "SELECT DISTINCT ON (f.trigger_ref) f.payload::text AS payload FROM tracing.feedback f WHERE " + where
                + " ORDER BY f.trigger_ref, f.created_at DESC LIMIT " + params.bind(limit, "bigint");
        return rows(new SqlStatement(sql, params.values()))
                .map(rows -> {
                    List<String> payloads = new ArrayList<>(rows.size());
                    rows.forEach(row -> payloads.add(row.getString("payload")));
                    return payloads;
                });
    }

    /** The rows of {@code feedback/aggregate}: one per bucket and group, {@code bucket} in epoch seconds when bucketed. */
    Uni<List<FeedbackAggregateBucket>> aggregate(SqlStatement statement, List<String> groupBy, boolean bucketed) {
        return rows(statement).map(rows -> {
            List<FeedbackAggregateBucket> buckets = new ArrayList<>(rows.size());
            for (Row row : rows) {
                Map<String, String> group = new LinkedHashMap<>();
                groupBy.forEach(dimension -> group.put(dimension, row.getString(dimension)));
                Map<String, Long> tagCounts = new TreeMap<>();
                row.getJsonObject("tag_counts").forEach(tag -> tagCounts.put(tag.getKey(), ((Number) tag.getValue()).longValue()));
                Map<String, Long> ratingCounts = new TreeMap<>();
                Map<String, Double> ratingSums = new TreeMap<>();
                row.getJsonObject("ratings").forEach(rating -> {
                    JsonArray sumAndCount = (JsonArray) rating.getValue();
                    ratingSums.put(rating.getKey(), ((Number) sumAndCount.getValue(0)).doubleValue());
                    ratingCounts.put(rating.getKey(), ((Number) sumAndCount.getValue(1)).longValue());
                });
                buckets.add(new FeedbackAggregateBucket(bucketed ? row.getLong("bucket") * 1000 : null, group,
                        row.getLong("total_count"), row.getLong("scored_count"), tagCounts, ratingCounts, ratingSums));
            }
            return buckets;
        });
    }

    private Uni<RowSet<Row>> rows(SqlStatement statement) {
        return pool.preparedQuery(statement.sql()).execute(Tuple.from(statement.params()));
    }

    private static List<Column> columns(List<FeedbackMetric> metrics) {
        return metrics.stream().flatMap(metric -> metric.stats().columns().stream()).toList();
    }
}
