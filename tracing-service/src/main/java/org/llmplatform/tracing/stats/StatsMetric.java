package org.llmplatform.tracing.stats;

import java.util.ArrayList;
import java.util.List;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.stats.CallStatsResource.MetricSpec;

/**
 * One requested metric with its aggregations and percentiles, and the output columns they make, named as the reference
 * names them: {@code sum_<metric>}, {@code avg_…}, {@code min_…}, {@code max_…}, {@code count_…}, {@code count_true_…},
 * {@code count_false_…} and {@code p<percentile>_<metric>}. The metric's values are {@code m_<metric>}; sums, minimums
 * and maximums of {@code decimal} values are numbers with a fraction (the reference's Float64), else integers.
 */
public record StatsMetric(String name, List<String> aggregations, List<Double> percentiles, boolean decimal) {

    static final List<String> USAGE_METRICS = List.of("input_tokens", "output_tokens", "total_tokens",
            "cache_read_input_tokens", "cache_creation_input_tokens", "input_cost", "output_cost", "total_cost");
    static final List<String> CALL_METRICS = List.of("latency_ms", "call_count", "error_count");
    public static final List<String> AGGREGATIONS = List.of("sum", "avg", "min", "max", "count", "count_true", "count_false");

    /** One output column: its name, its aggregate over {@code m_<metric>}, and whether an empty bucket shows 0 (else null). */
    public record Column(String alias, String aggregateSql, boolean zeroWhenEmpty) {
    }

    /** The specs of one list of the request, checked; a spec without aggregations nor percentiles sums. */
    static List<StatsMetric> of(List<MetricSpec> specs, List<String> allowed, String field) {
        List<StatsMetric> metrics = new ArrayList<>();
        if (specs == null) {
            return metrics;
        }
        for (int i = 0; i < specs.size(); i++) {
            MetricSpec spec = specs.get(i);
            if (spec == null || spec.metric() == null) {
                throw ApiException.invalidField("missing", List.of("body", field, i, "metric"), "Field required", null);
            }
            if (!allowed.contains(spec.metric())) {
                throw ApiException.invalidField("literal_error", List.of("body", field, i, "metric"),
                        "Input should be " + quotedChoices(allowed), spec.metric());
            }
            List<String> aggregations = spec.aggregations() == null ? List.of("sum") : spec.aggregations();
            for (int a = 0; a < aggregations.size(); a++) {
                if (!AGGREGATIONS.contains(aggregations.get(a))) {
                    throw ApiException.invalidField("enum", List.of("body", field, i, "aggregations", a),
                            "Input should be " + quotedChoices(AGGREGATIONS), aggregations.get(a));
                }
            }
            List<Double> percentiles = spec.percentiles() == null ? List.of() : spec.percentiles();
            for (int p = 0; p < percentiles.size(); p++) {
                Double percentile = percentiles.get(p);
                if (percentile == null || percentile < 0 || percentile > 100) {
                    throw ApiException.badRequest("Percentile must be between 0 and 100, got " + percentile);
                }
            }
            metrics.add(new StatsMetric(spec.metric(), aggregations.isEmpty() && percentiles.isEmpty() ? List.of("sum")
                    : aggregations, percentiles, USAGE_METRICS.contains(spec.metric())));
        }
        return metrics;
    }

    /** The aggregates of this metric, aggregations first, then percentiles, in the request's order. */
    public List<Column> columns() {
        String value = "m_" + name;
        String whole = decimal ? "::float8" : "::bigint";
        List<Column> columns = new ArrayList<>();
        for (String aggregation : aggregations) {
            columns.add(switch (aggregation) {
                case "sum" -> new Column("sum_" + name, "sum(" + value + ")" + whole, true);
                case "avg" -> new Column("avg_" + name, "avg(" + value + ")::float8", true);
                case "min" -> new Column("min_" + name, "min(" + value + ")" + whole, false);
                case "max" -> new Column("max_" + name, "max(" + value + ")" + whole, false);
                case "count" -> new Column("count_" + name, "count(" + value + ")", true);
                case "count_true" -> new Column("count_true_" + name, "count(*) FILTER (WHERE " + value + " = 1)", true);
                case "count_false" -> new Column("count_false_" + name, "count(*) FILTER (WHERE " + value + " = 0)", true);
                default -> throw new IllegalArgumentException(aggregation);
            });
        }
        for (double percentile : percentiles) {
            // The reference's interpolated quantile (exact up to 8192 values a bucket) is percentile_cont.
            columns.add(new Column("p" + percentileLabel(percentile) + "_" + name,
                    "percentile_cont(" + (Math.round(percentile / 100.0 * 1e6) / 1e6) + ") WITHIN GROUP (ORDER BY " + value + ")",
                    false));
        }
        return columns;
    }

    /** As Python prints the percentile: {@code 50} for 50.0, {@code 99.9} otherwise. */
    public static String percentileLabel(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }

    public static String quotedChoices(List<String> choices) {
        List<String> quoted = choices.stream().map(choice -> "'" + choice + "'").toList();
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
    }
}
