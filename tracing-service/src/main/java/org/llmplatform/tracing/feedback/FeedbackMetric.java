package org.llmplatform.tracing.feedback;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackMetricSpec;
import org.llmplatform.tracing.query.SqlParams;
import org.llmplatform.tracing.stats.StatsMetric;

/**
 * One metric of {@code feedback/stats} (docs/tracing-service.md#feedback-stats): the payload value at a dot path, read
 * as the reference's ClickHouse reads it (numeric: a JSON number; boolean: {@code true} 1, {@code false} 0;
 * categorical: the text of a JSON string, else empty), aggregated under the columns {@code <aggregation>_<slug>}.
 */
record FeedbackMetric(String jsonPath, String valueType, StatsMetric stats) {

    /** The characters a path may hold (the reference's {@code JSON_PATH_PATTERN}). */
    static final Pattern JSON_PATH = Pattern.compile("[a-zA-Z0-9_.]+");

    static final List<String> VALUE_TYPES = List.of("numeric", "boolean", "categorical");

    /**
     * The request's metrics, checked; an empty aggregation list takes the value type's defaults (numeric: avg, min,
     * max; boolean: count_true, count_false), percentiles count for numeric values only, and a metric left with
     * nothing to compute is dropped.
     */
    static List<FeedbackMetric> of(List<FeedbackMetricSpec> specs) {
        List<FeedbackMetric> metrics = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            FeedbackMetricSpec spec = specs.get(i);
            if (spec == null || spec.jsonPath() == null) {
                throw ApiException.invalidField("missing", List.of("body", "metrics", i, "json_path"), "Field required", null);
            }
            String valueType = spec.valueType() == null ? "numeric" : spec.valueType();
            if (!VALUE_TYPES.contains(valueType)) {
                throw ApiException.invalidField("literal_error", List.of("body", "metrics", i, "value_type"),
                        "Input should be " + StatsMetric.quotedChoices(VALUE_TYPES), valueType);
            }
            List<String> aggregations = spec.aggregations() == null ? List.of() : spec.aggregations();
            for (int a = 0; a < aggregations.size(); a++) {
                if (!StatsMetric.AGGREGATIONS.contains(aggregations.get(a))) {
                    throw ApiException.invalidField("enum", List.of("body", "metrics", i, "aggregations", a),
                            "Input should be " + StatsMetric.quotedChoices(StatsMetric.AGGREGATIONS), aggregations.get(a));
                }
            }
            String path = checkedPath(spec.jsonPath());
            if (aggregations.isEmpty()) {
                aggregations = switch (valueType) {
                    case "numeric" -> List.of("avg", "min", "max");
                    case "boolean" -> List.of("count_true", "count_false");
                    default -> List.of();
                };
            }
            List<Double> percentiles = !valueType.equals("numeric") || spec.percentiles() == null ? List.of()
                    : spec.percentiles();
            for (Double percentile : percentiles) {
                if (percentile == null || percentile < 0 || percentile > 100) {
                    throw ApiException.badRequest("Percentile must be between 0 and 100, got " + percentile);
                }
            }
            if (valueType.equals("categorical")) {
                aggregations.stream().filter(aggregation -> !aggregation.equals("count")).findFirst().ifPresent(other -> {
                    throw ApiException.badRequest("Aggregation '" + other + "' needs numeric or boolean values: json_path '"
                            + path + "' is categorical (count only)");
                });
            }
            if (!aggregations.isEmpty() || !percentiles.isEmpty()) {
                metrics.add(new FeedbackMetric(path, valueType, new StatsMetric(path.replace('.', '_'), aggregations,
                        percentiles, valueType.equals("numeric"))));
            }
        }
        return metrics;
    }

    /** The SQL of this metric's value in the feedback row {@code f}, named {@code m_<slug>}. */
    String valueSql(SqlParams params) {
        StringBuilder value = new StringBuilder("f.payload");
        for (String key : jsonPath.split("\\.", -1)) {
            value.append(" -> ").append(params.bind(key, "text"));
        }
        String sql = switch (valueType) {
            case "numeric" -> "CASE WHEN jsonb_typeof(" + value + ") = 'number' THEN (" + value + ")::float8 END";
            case "boolean" -> "CASE " + value + " WHEN 'true'::jsonb THEN 1 WHEN 'false'::jsonb THEN 0 END";
            default -> "coalesce(CASE WHEN jsonb_typeof(" + value + ") = 'string' THEN " + value + " #>> '{}' END, '')";
        };
        // Unquoted, as StatsMetric's aggregates name it.
        return sql + " AS m_" + stats.name();
    }

    private static String checkedPath(String jsonPath) {
        if (jsonPath.isBlank()) {
            throw ApiException.badRequest("json_path cannot be empty");
        }
        if (!JSON_PATH.matcher(jsonPath).matches()) {
            throw ApiException.badRequest("json_path may only contain [a-zA-Z0-9_.], got: '" + jsonPath + "'");
        }
        return jsonPath;
    }
}
