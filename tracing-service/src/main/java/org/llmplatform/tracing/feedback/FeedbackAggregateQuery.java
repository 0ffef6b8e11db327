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
 * {@code feedback/aggregate} checked and made SQL (docs/tracing-service.md#feedback-stats): the reference's
 * {@code feedback_agg_query_builder} over the stored scorer and span columns.
 */
record FeedbackAggregateQuery(String projectId, FeedbackAggregateReq request) {

    static final List<String> GROUP_BY = List.of("scorer_id", "span_agent_name", "span_agent_version", "span_status_code");
    static final List<String> SPAN_TYPES = List.of("agent_turn", "agent_conversation");

    /** The scorer_ratings key agent monitors score under; the rating filter reads it. */
    private static final String RATING_KEY = "_rating_";

    /** Per group: each tag's rows (a tag twice in a row counts twice, as ClickHouse's sumMap). */
    private static final String TAG_COUNTS = """
            (SELECT coalesce(jsonb_object_agg(tagged.tag, tagged.n), '{}') FROM (SELECT tag, count(*) AS n
                FROM jsonb_array_elements(jsonb_agg(to_jsonb(f.scorer_tags))) AS row_tags(tags),
                    jsonb_array_elements_text(row_tags.tags) AS tag GROUP BY tag) tagged)""";

    /** Per group: each rating's sum and count of values, as one object {@code {name: [sum, count]}}. */
    private static final String RATINGS = """
            (SELECT coalesce(jsonb_object_agg(rated.key, jsonb_build_array(rated.total, rated.n)), '{}') FROM (
                SELECT rating.key, sum(rating.value::text::float8) AS total, count(*) AS n
                FROM jsonb_array_elements(jsonb_agg(f.scorer_ratings)) AS row_ratings(ratings),
                    jsonb_each(row_ratings.ratings) AS rating GROUP BY rating.key) rated)""";

    private static final String SCORED = "count(*) FILTER (WHERE cardinality(f.scorer_tags) > 0 OR f.scorer_ratings <> '{}')";

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
        select.add(SCORED + " AS scored_count");
        select.add(TAG_COUNTS + " AS tag_counts");
        select.add(RATINGS + " AS ratings");
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
            conditions.add("f.span_agent_name = ANY(" + params.bind(request.spanAgentNames().toArray(String[]::new), "text[]")
                    + ")");
        }
        anyOf(conditions, request.spanTypes(),
                value -> "split_part(f.weave_ref, '/', -2) = " + params.bind(value, "text"));
        if (!orEmpty(request.tags()).isEmpty()) {
            conditions.add("f.scorer_tags && " + params.bind(request.tags().toArray(String[]::new), "text[]"));
        }
        if (request.ratingMin() != null || request.ratingMax() != null) {
            // Only rows that carry a _rating_: tag-only rows drop out.
            String key = params.bind(RATING_KEY, "text");
            conditions.add("f.scorer_ratings ? " + key);
            String rating = "(f.scorer_ratings ->> " + key + ")::float8";
            if (request.ratingMin() != null) {
                conditions.add(rating + " >= " + params.bind(request.ratingMin(), "float8"));
            }
            if (request.ratingMax() != null) {
                conditions.add(rating + " <= " + params.bind(request.ratingMax(), "float8"));
            }
        }
        return String.join(" AND ", conditions);
    }

    private static String dimensionSql(String dimension) {
        return dimension.equals("scorer_id") ? objectId("f.runnable_ref") : "f." + dimension;
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
