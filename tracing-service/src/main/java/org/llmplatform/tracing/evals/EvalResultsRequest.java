package org.llmplatform.tracing.evals;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvalResultsFilter;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvalResultsQueryBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvalResultsSortBy;
import org.llmplatform.tracing.evals.EvalRowFilter.Scoped;
import org.llmplatform.tracing.evals.EvalRowOrder.SortBy;
import org.llmplatform.tracing.query.ExprParser;

/**
 * An {@code eval_results/query} body with its defaults applied and its sorts and filters checked, before any query:
 * a malformed {@code direction}, {@code mode}, {@code filter_logic_operator} or {@code query} is a 422 naming it, a
 * field outside {@code scores.*}, {@code inputs.*}, {@code output.*} and {@code row_digest} a 400.
 */
record EvalResultsRequest(List<String> rootIds, boolean includeRows, boolean includeSummary, boolean includeRaw,
        boolean resolveRowRefs, boolean requireIntersection, boolean summaryIntersection, boolean includeChildren,
        boolean includeCosts, List<SortBy> sorts, List<Scoped> filters, boolean matchAny, long offset, Long limit) {

    static EvalResultsRequest of(EvalResultsQueryBody body) {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        if (body.evaluationCallIds() != null) {
            ids.addAll(body.evaluationCallIds());
        }
        if (body.evaluationRunIds() != null) {
            ids.addAll(body.evaluationRunIds());
        }
        if (body.limit() != null && body.limit() < 0 || body.offset() != null && body.offset() < 0) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", body.limit() != null && body.limit() < 0
                    ? "limit" : "offset"), "Input should be greater than or equal to 0", null);
        }
        boolean includeRows = body.includeRows() == null || body.includeRows();
        boolean includeRaw = includeRows && Boolean.TRUE.equals(body.includeRawDataRows());
        boolean intersection = Boolean.TRUE.equals(body.requireIntersection());
        String operator = body.filterLogicOperator() == null ? "or" : body.filterLogicOperator();
        if (!operator.equals("and") && !operator.equals("or")) {
            throw ApiException.invalidField("literal_error", List.of("body", "filter_logic_operator"),
                    "Input should be 'and' or 'or'", operator);
        }
        return new EvalResultsRequest(new ArrayList<>(ids), includeRows, Boolean.TRUE.equals(body.includeSummary()),
                includeRaw, includeRaw && Boolean.TRUE.equals(body.resolveRowRefs()), intersection,
                body.summaryRequireIntersection() != null ? body.summaryRequireIntersection() : intersection,
                body.includePredictAndScoreChildren() == null || body.includePredictAndScoreChildren(),
                Boolean.TRUE.equals(body.includeCosts()), sorts(body.sortBy()), filters(body.filters()),
                operator.equals("or"), body.offset() == null ? 0 : body.offset(), body.limit());
    }

    /** Whether a sort or filter reads the dataset rows, which must then be read for every row, not just a page. */
    boolean readsInputs() {
        return sorts.stream().anyMatch(sort -> EvalResultFields.readsInputs(sort.field()))
                || filters.stream().anyMatch(filter -> EvalRowFilter.fields(filter.query()).stream()
                        .anyMatch(EvalResultFields::readsInputs));
    }

    private static List<SortBy> sorts(List<EvalResultsSortBy> sortBy) {
        List<SortBy> sorts = new ArrayList<>();
        for (int i = 0; sortBy != null && i < sortBy.size(); i++) {
            EvalResultsSortBy sort = sortBy.get(i);
            if (sort == null) {
                throw ApiException.invalidField("model_type", List.of("body", "sort_by", i), "Input should be a valid dictionary", null);
            }
            require(sort.field(), "sort_by", i, "field");
            require(sort.direction(), "sort_by", i, "direction");
            oneOf(sort.direction(), List.of("asc", "desc"), "sort_by", i, "direction");
            String mode = sort.mode() == null ? "value" : sort.mode();
            oneOf(mode, List.of("value", "difference"), "sort_by", i, "mode");
            EvalResultFields.requireSortable(sort.field());
            sorts.add(new SortBy(sort.field(), sort.direction().equals("desc"), sort.evaluationCallId(),
                    mode.equals("difference")));
        }
        return sorts;
    }

    private static List<Scoped> filters(List<EvalResultsFilter> given) {
        List<Scoped> filters = new ArrayList<>();
        for (int i = 0; given != null && i < given.size(); i++) {
            EvalResultsFilter filter = given.get(i);
            if (filter == null || filter.query() == null || filter.query().isNull()) {
                throw ApiException.invalidField("missing", List.of("body", "filters", i, "query"), "Field required", null);
            }
            Scoped scoped = new Scoped(filter.evaluationCallId(), ExprParser.parseQuery(filter.query()));
            EvalRowFilter.fields(scoped.query()).forEach(EvalResultFields::requireFilterable);
            filters.add(scoped);
        }
        return filters;
    }

    private static void require(String value, String list, int index, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", List.of("body", list, index, field), "Field required", null);
        }
    }

    private static void oneOf(String value, List<String> allowed, String list, int index, String field) {
        if (!allowed.contains(value)) {
            throw ApiException.invalidField("literal_error", List.of("body", list, index, field),
                    "Input should be '" + allowed.get(0) + "' or '" + allowed.get(1) + "'", value);
        }
    }
}
