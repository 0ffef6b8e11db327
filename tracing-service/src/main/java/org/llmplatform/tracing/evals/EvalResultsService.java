package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.calls.CallQueryService;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.calls.CallsQuery;
import org.llmplatform.tracing.evals.EvalResultRows.Row;
import org.llmplatform.tracing.refs.ParsedRef;
import org.llmplatform.tracing.refs.RefResolver;

/**
 * {@code eval_results/query}: the {@code predict_and_score} children of the named evaluation roots (SDK evaluations'
 * {@code Evaluation.evaluate} calls and v2 evaluation runs alike) and their children, grouped per dataset row, then
 * filtered, intersected, sorted and paged as the reference's query does; the summary covers the filtered rows.
 */
@ApplicationScoped
public class EvalResultsService {

    static final String REFS_WARNING = "Failed to resolve dataset row refs; raw_data_row may contain refs";

    private final CallQueryService calls;
    private final RefResolver refs;
    private final ObjectMapper json;

    public EvalResultsService(CallQueryService calls, RefResolver refs, ObjectMapper json) {
        this.calls = calls;
        this.refs = refs;
        this.json = json;
    }

    public Uni<ObjectNode> query(String projectId, EvalResultsRequest request) {
        List<String> rootIds = request.rootIds();
        if (rootIds.isEmpty()) {
            EvalResultRows empty = new EvalResultRows(json);
            return Uni.createFrom().item(answer(List.of(), 0,
                    request.includeSummary() ? empty.summary(List.of(), Map.of()) : null, List.of()));
        }
        boolean trialCosts = request.includeCosts() && !request.includeChildren();
        return children(projectId, rootIds, trialCosts)
                .map(found -> found.stream().filter(call -> EvalResultRows.isPredictAndScore(call.opName()))
                        .sorted(Comparator.comparing(call -> OffsetDateTime.parse(call.startedAt()))).toList())
                .chain(predictAndScores -> request.includeChildren()
                        ? children(projectId, predictAndScores.stream().map(CallSchema::id).toList(), request.includeCosts())
                                .map(trialChildren -> grouped(predictAndScores, trialChildren, request.includeRaw()))
                        : Uni.createFrom().item(grouped(predictAndScores, null, request.includeRaw())))
                .chain(rows -> request.readsInputs() ? resolved(rows.all()).replaceWith(rows) : Uni.createFrom().item(rows))
                .chain(rows -> select(projectId, request, rows));
    }

    private Uni<ObjectNode> select(String projectId, EvalResultsRequest request, EvalResultRows rows) {
        List<String> rootIds = request.rootIds();
        EvalRowFilter filter = EvalRowFilter.of(request.filters(), request.matchAny());
        List<Row> matching = rows.all().stream().filter(filter::matches).toList();
        List<Row> selected = request.includeRows()
                ? EvalResultRows.selected(matching, rootIds, request.requireIntersection()).stream()
                        .sorted(EvalRowOrder.of(request.sorts(), rootIds)).toList()
                : List.of();
        List<Row> page = page(selected, request.offset(), request.limit());
        Uni<List<String>> warnings = request.resolveRowRefs() ? resolved(page) : Uni.createFrom().item(List.of());
        return warnings.chain(found -> {
            List<ObjectNode> pageJson = page.stream().map(row -> rows.rowJson(row, request.includeRaw(),
                    request.resolveRowRefs())).toList();
            if (!request.includeSummary()) {
                return Uni.createFrom().item(answer(pageJson, selected.size(), null, found));
            }
            List<Row> summarized = EvalResultRows.selected(matching, rootIds, request.summaryIntersection());
            return roots(projectId, rootIds).map(roots -> answer(pageJson, selected.size(),
                    rows.summary(summarized, roots), found));
        });
    }

    private EvalResultRows grouped(List<CallSchema> predictAndScores, List<CallSchema> trialChildren, boolean includeRaw) {
        Map<String, List<CallSchema>> byParent = trialChildren == null ? null
                : trialChildren.stream().collect(Collectors.groupingBy(CallSchema::parentId));
        EvalResultRows rows = new EvalResultRows(json);
        predictAndScores.forEach(call -> rows.add(call, byParent == null ? null : byParent.getOrDefault(call.id(), List.of()),
                includeRaw));
        return rows;
    }

    /**
     * Reads the table rows the rows' ref examples name (those not read yet); when that fails the refs stay, with the
     * reference's warning.
     */
    private Uni<List<String>> resolved(List<Row> rows) {
        List<Row> withRefs = rows.stream().filter(row -> row.resolved == null && row.example.isTextual()
                && ParsedRef.parse(row.example.textValue()).isPresent()).toList();
        if (withRefs.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return refs.readBatch(withRefs.stream().map(row -> row.example.textValue()).toList()).map(values -> {
            for (int i = 0; i < withRefs.size(); i++) {
                if (values.get(i) != null && !values.get(i).isNull()) {
                    withRefs.get(i).resolved = values.get(i);
                }
            }
            return List.<String>of();
        }).onFailure().recoverWithItem(() -> List.of(REFS_WARNING));
    }

    /** The calls whose parent is one of these, asked a thousand parents at a time (the filter's limit). */
    private Uni<List<CallSchema>> children(String projectId, List<String> parentIds, boolean costs) {
        List<Multi<CallSchema>> parts = new ArrayList<>();
        for (int from = 0; from < parentIds.size(); from += CallFilter.MAX_LIST_LENGTH) {
            List<String> chunk = parentIds.subList(from, Math.min(parentIds.size(), from + CallFilter.MAX_LIST_LENGTH));
            parts.add(calls.stream(CallsQuery.in(projectId).costs(costs)
                    .filter(new CallFilter(null, null, null, chunk, null, null, null, null, null, null, null)).build()));
        }
        return parts.isEmpty() ? Uni.createFrom().item(List.of()) : Multi.createBy().concatenating().streams(parts).collect().asList();
    }

    private Uni<Map<String, CallSchema>> roots(String projectId, List<String> rootIds) {
        return calls.stream(CallsQuery.in(projectId)
                        .filter(new CallFilter(null, null, null, null, null, rootIds, null, null, null, null, null)).build())
                .collect().asMap(CallSchema::id, Function.identity());
    }

    private static List<Row> page(List<Row> rows, long offset, Long limit) {
        int from = (int) Math.min(rows.size(), offset);
        int to = limit == null ? rows.size() : (int) Math.min(rows.size(), from + Math.max(0, limit));
        return rows.subList(from, to);
    }

    private ObjectNode answer(List<ObjectNode> rows, int totalRows, ObjectNode summary, List<String> warnings) {
        ObjectNode answer = json.createObjectNode();
        ArrayNode list = answer.putArray("rows");
        rows.forEach(list::add);
        answer.put("total_rows", totalRows);
        answer.set("summary", summary);
        ArrayNode warningList = answer.putArray("warnings");
        warnings.forEach(warningList::add);
        return answer;
    }
}
