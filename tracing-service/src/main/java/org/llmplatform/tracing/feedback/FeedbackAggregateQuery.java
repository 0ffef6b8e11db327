package org.llmplatform.tracing.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateReq;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.query.SqlStatement;
import org.llmplatform.tracing.stats.StatsMetric;

/**
 * {@code feedback/aggregate} checked and made SQL (docs/tracing-service.md#feedback-stats). This server keeps no
 * scorer tags, ratings nor agent-span fields on feedback (feedback create refuses them), so every row reads as the
 * reference's defaults: no tags, no ratings, {@code span_agent_name} and {@code span_agent_version} empty,
 * {@code span_status_code} {@code UNSET}.
 */
record FeedbackAggregateQuery(String projectId, FeedbackAggregateReq request) {

    static final List<String> GROUP_BY = List.of("scorer_id", "span_agent_name", "span_agent_version", "span_status_code");
    static final List<String> SPAN_TYPES = List.of("agent_turn", "agent_conversation");

    /** The request's fields checked as the reference's model checks them (422 naming the field). */
    static FeedbackAggregateQuery checked(String projectId, FeedbackAggregateReq request) {
        atLeast(request.afterMs(), "after_ms");
        atLeast(request.beforeMs(), "before_ms");
        if (request.timeBucketSeconds() != null && request.timeBucketSeconds() <= 0) {
            throw ApiException.invalidField("greater_than", List.of("body", "time_bucket_seconds"),
                    "Input should be greater than 0", request.timeBucketSeconds());
        }
        rating(request.ratingMin(), "rating_min");
        rating(request.ratingMax(), "rating_max");
        oneOf(request.spanTypes(), SPAN_TYPES, "span_types");
        oneOf(request.groupBy(), GROUP_BY, "group_by");
        return new FeedbackAggregateQuery(projectId, request);
    }

    /** The dimensions, each once (a group is a map of them). */
    List<String> groupBy() {
        return orEmpty(request.groupBy()).stream().distinct().toList();
    }

    boolean bucketed() {
        return request.timeBucketSeconds() != null;
    }

    /**
     * {@code bucket} (epoch seconds of the bucket's start, buckets from the epoch), the dimensions, {@code total_count};
     * grouped and ordered by those; no grouping at all is one row, even of none.
     */
    SqlStatement sql() {
        SqlParams params = new SqlParams();
        List<String> select = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        if (bucketed()) {
            String size = params.bind(request.timeBucketSeconds(), "bigint");
            select.add("floor(extract(epoch FROM f.created_at) / " + size + ")::bigint * " + size + " AS bucket");
            keys.add("bucket");
        }
        for (String dimension : groupBy()) {
            // Byte order, as ClickHouse sorts strings.
            select.add(dimensionSql(dimension) + " COLLATE \"C\" AS " + dimension);
            keys.add(dimension);
        }
        select.add("count(*) AS total_count");
        String sql = "SELECT " + String.join(", ", select) + " FROM tracing.feedback f WHERE " + whereSql(params);
        if (!keys.isEmpty()) {
            // The reference orders by bucket alone when bucketed; the groups within a bucket follow in byte order here.
            sql += " GROUP BY " + String.join(", ", keys) + " ORDER BY " + String.join(", ", keys);
        }
        return new SqlStatement(sql, params.values());
    }

    private String whereSql(SqlParams params) {
        List<String> conditions = new ArrayList<>(List.of("f.project_id = " + params.bind(projectId, "text"),
                "f.created_at >= " + millis(params, request.afterMs()), "f.created_at < " + millis(params, request.beforeMs())));
        anyOf(conditions, request.feedbackTypes(),
                value -> "starts_with(f.feedback_type, " + params.bind(stripStars(value), "text") + ")");
        anyOf(conditions, request.monitorIds(), value -> objectIdMatches("f.trigger_ref", value, params));
        anyOf(conditions, request.scorerIds(), value -> objectIdMatches("f.runnable_ref", value, params));
        if (!orEmpty(request.spanAgentNames()).isEmpty()) {
            conditions.add("'' = ANY(" + params.bind(request.spanAgentNames().toArray(String[]::new), "text[]") + ")");
        }
        anyOf(conditions, request.spanTypes(),
                value -> "split_part(f.weave_ref, '/', -2) = " + params.bind(value, "text"));
        if (!orEmpty(request.tags()).isEmpty() || request.ratingMin() != null || request.ratingMax() != null) {
            // No row carries a tag or a _rating_ here.
            conditions.add("false");
        }
        return String.join(" AND ", conditions);
    }

    private static String dimensionSql(String dimension) {
        return switch (dimension) {
            case "scorer_id" -> objectId("f.runnable_ref");
            case "span_status_code" -> "'UNSET'::text";
            default -> "''::text";
        };
    }

    /** A ref's object id: the name of its last path segment, before any {@code :digest}. */
    private static String objectId(String column) {
        return "split_part(split_part(coalesce(" + column + ", ''), '/', -1), ':', 1)";
    }

    /** Exact, or a prefix when the value ends in {@code *}. */
    private static String objectIdMatches(String column, String value, SqlParams params) {
        return value.endsWith("*") ? "starts_with(" + objectId(column) + ", " + params.bind(stripStars(value), "text") + ")"
                : objectId(column) + " = " + params.bind(value, "text");
    }

    private static String millis(SqlParams params, long epochMillis) {
        return "(timestamptz 'epoch' + " + params.bind(epochMillis, "bigint") + " * interval '1 millisecond')";
    }

    private static void anyOf(List<String> conditions, List<String> values, Function<String, String> condition) {
        if (values != null && !values.isEmpty()) {
            conditions.add("(" + String.join(" OR ", values.stream().map(condition).toList()) + ")");
        }
    }

    private static String stripStars(String value) {
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == '*') {
            end--;
        }
        return value.substring(0, end);
    }

    private static void atLeast(Long value, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", List.of("body", field), "Field required", null);
        }
        if (value < 0) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", field),
                    "Input should be greater than or equal to 0", value);
        }
    }

    private static void rating(Double value, String field) {
        if (value != null && value < 0) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", field),
                    "Input should be greater than or equal to 0", value);
        }
        if (value != null && value > 1) {
            throw ApiException.invalidField("less_than_equal", List.of("body", field),
                    "Input should be less than or equal to 1", value);
        }
    }

    private static void oneOf(List<String> values, List<String> allowed, String field) {
        List<String> checked = orEmpty(values);
        for (int i = 0; i < checked.size(); i++) {
            if (!allowed.contains(checked.get(i))) {
                throw ApiException.invalidField("literal_error", List.of("body", field, i),
                        "Input should be " + StatsMetric.quotedChoices(allowed), checked.get(i));
            }
        }
    }

    private static List<String> orEmpty(List<String> values) {
        return values == null ? List.of() : values;
    }
}
