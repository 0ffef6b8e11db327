package org.llmplatform.tracing.evals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.llmplatform.tracing.evals.EvalResultRows.Row;

/**
 * The order of {@code eval_results/query}'s rows, as the reference's {@code ROW_NUMBER() OVER (ORDER BY ...)}: each
 * {@code sort_by} in turn, then the row digest. A score sorts by its mean over the row's trials (in one evaluation
 * when named); another field by its first value, numerically where it is a number, then as text; in
 * {@code difference} mode over several evaluations, by the spread (greatest minus least) of the per-evaluation values.
 * A row without a value comes last either way, as ClickHouse's NULLS LAST.
 */
final class EvalRowOrder {

    record SortBy(String field, boolean descending, String evaluationId, boolean difference) {
    }

    private EvalRowOrder() {
    }

    static Comparator<Row> of(List<SortBy> sorts, List<String> rootIds) {
        Comparator<Row> order = (a, b) -> 0;
        for (SortBy sort : sorts) {
            order = order.thenComparing(key(sort, rootIds), keys(sort.descending()));
        }
        return order.thenComparing(row -> row.digest);
    }

    /** A row's sort key: a number and a text, either null. */
    private record Key(Double number, String text) {
    }

    private static Function<Row, Key> key(SortBy sort, List<String> rootIds) {
        if (sort.difference() && rootIds.size() > 1) {
            return row -> {
                List<Double> values = new ArrayList<>();
                for (String root : rootIds) {
                    values.add(numeric(row, sort.field(), root));
                }
                if (values.contains(null)) {
                    return new Key(null, null);
                }
                double spread = values.stream().mapToDouble(Double::doubleValue).max().orElse(0)
                        - values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
                return new Key(spread, null);
            };
        }
        if (EvalResultFields.isScore(sort.field())) {
            return row -> new Key(EvalResultFields.mean(row, sort.field(), sort.evaluationId()), null);
        }
        return row -> {
            String text = EvalResultFields.first(row, sort.field(), sort.evaluationId());
            return new Key(EvalResultFields.number(text), text);
        };
    }

    private static Double numeric(Row row, String field, String evaluationId) {
        return EvalResultFields.isScore(field) ? EvalResultFields.mean(row, field, evaluationId)
                : EvalResultFields.number(EvalResultFields.first(row, field, evaluationId));
    }

    private static Comparator<Key> keys(boolean descending) {
        Comparator<Double> numbers = descending ? Comparator.reverseOrder() : Comparator.naturalOrder();
        Comparator<String> texts = descending ? Comparator.reverseOrder() : Comparator.naturalOrder();
        return Comparator.comparing(Key::number, Comparator.nullsLast(numbers))
                .thenComparing(Key::text, Comparator.nullsLast(texts));
    }
}
