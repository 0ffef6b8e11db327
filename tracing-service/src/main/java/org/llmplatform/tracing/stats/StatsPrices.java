package org.llmplatform.tracing.stats;

import java.util.List;
import org.llmplatform.tracing.query.SqlParams;

/**
 * The priced usage metrics of calls/stats ({@code sum_input_cost}, {@code sum_output_cost}, {@code sum_total_cost}): a
 * bucket's input and output tokens of a model times that model's prompt and completion token price, the price chosen
 * by the service's rule (migration V17's {@code tracing.chosen_price} over the project's price book: the project's
 * price before the defaults, the latest in effect) at the bucket's start; 0 for a model without a price
 * (docs/tracing-service.md#call-stats). Both ways of answering use these columns over their own token sums.
 */
final class StatsPrices {

    static final List<String> PRICED = List.of("input_cost", "output_cost", "total_cost");

    /** The input and output token sums a statement keeps, when a priced column needs them. */
    static final String INPUT_TOKENS = "priced_input_tokens";
    static final String OUTPUT_TOKENS = "priced_output_tokens";

    private StatsPrices() {
    }

    /** Whether this column is a priced sum (the other aggregations of a cost metric read counts of that name). */
    static boolean priced(StatsMetric metric, StatsMetric.Column column) {
        return PRICED.contains(metric.name()) && column.alias().equals("sum_" + metric.name());
    }

    static boolean anyPriced(List<StatsMetric> metrics) {
        return metrics.stream().anyMatch(metric -> metric.columns().stream().anyMatch(column -> priced(metric, column)));
    }

    /**
     * {@code , book AS MATERIALIZED (…)}: the project's price book, read once per statement (inlined, PostgreSQL read it
     * again for every bucket and model: 5.5 s of a 5.6 s statement over 2,160 usage buckets).
     */
    static String bookCte(SqlParams params, String project) {
        return ",\nbook AS MATERIALIZED (SELECT tracing.price_book(" + params.bind(project, "text") + ") AS book)";
    }

    /** The join that gives each bucket-model row of {@code grid} its chosen price. */
    static String priceJoin() {
        return "\nCROSS JOIN book CROSS JOIN LATERAL (SELECT tracing.chosen_price(book.book -> grid.model,"
                + " to_timestamp(grid.bucket)) AS price) priced";
    }

    /** The priced column over {@code aggregated}'s token sums ({@code float8}, null where the bucket has no call). */
    static String column(StatsMetric metric) {
        String input = "coalesce(aggregated." + INPUT_TOKENS + " * (priced.price ->> 'prompt_token_cost')::float8, 0)";
        String output = "coalesce(aggregated." + OUTPUT_TOKENS + " * (priced.price ->> 'completion_token_cost')::float8, 0)";
        String value = switch (metric.name()) {
            case "input_cost" -> input;
            case "output_cost" -> output;
            default -> "(" + input + " + " + output + ")";
        };
        return value + " AS \"sum_" + metric.name() + "\"";
    }
}
