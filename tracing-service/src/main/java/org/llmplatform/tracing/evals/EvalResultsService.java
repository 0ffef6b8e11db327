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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.calls.CallQueryService;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.calls.CallsQuery;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvalResultsQueryBody;
import org.llmplatform.tracing.evals.EvalResultRows.Row;
import org.llmplatform.tracing.refs.ParsedRef;
import org.llmplatform.tracing.refs.RefResolver;

/**
 * {@code eval_results/query}: the {@code predict_and_score} children of the named evaluation roots (SDK evaluations'
 * {@code Evaluation.evaluate} calls and v2 evaluation runs alike) and their children, grouped per dataset row.
 */
@ApplicationScoped
public class EvalResultsService {

    private final CallQueryService calls;
    private final RefResolver refs;
    private final ObjectMapper json;

    public EvalResultsService(CallQueryService calls, RefResolver refs, ObjectMapper json) {
        this.calls = calls;
        this.refs = refs;
        this.json = json;
    }

    public Uni<ObjectNode> query(String projectId, EvalResultsQueryBody body) {
        List<String> rootIds = rootIds(body);
        boolean includeRows = body.includeRows() == null || body.includeRows();
        boolean includeSummary = Boolean.TRUE.equals(body.includeSummary());
        boolean includeRaw = includeRows && Boolean.TRUE.equals(body.includeRawDataRows());
        boolean resolveRefs = includeRaw && Boolean.TRUE.equals(body.resolveRowRefs());
        if (rootIds.isEmpty()) {
            EvalResultRows empty = new EvalResultRows(json);
            return Uni.createFrom().item(answer(List.of(), 0, includeSummary ? empty.summary(List.of(), Map.of()) : null,
                    List.of()));
        }
        return children(projectId, rootIds).map(found -> found.stream().filter(call -> EvalResultRows.isPredictAndScore(call.opName()))
                        .sorted(Comparator.comparing(call -> OffsetDateTime.parse(call.startedAt()))).toList())
                .chain(predictAndScores -> children(projectId, predictAndScores.stream().map(CallSchema::id).toList())
                        .map(trialChildren -> grouped(predictAndScores, trialChildren, includeRaw)))
                .chain(grouped -> resolveRefs ? resolved(grouped) : Uni.createFrom().item(new Resolved(grouped, List.of())))
                .chain(resolved -> {
                    boolean intersection = Boolean.TRUE.equals(body.requireIntersection());
                    List<Row> selected = includeRows ? EvalResultRows.selected(resolved.rows.all(), rootIds, intersection) : List.of();
                    List<ObjectNode> page = page(selected, body.offset(), body.limit()).stream()
                            .map(row -> resolved.rows.rowJson(row, includeRaw)).toList();
                    if (!includeSummary) {
                        return Uni.createFrom().item(answer(page, selected.size(), null, resolved.warnings));
                    }
                    boolean summaryIntersection = body.summaryRequireIntersection() != null
                            ? body.summaryRequireIntersection() : intersection;
                    List<Row> summarized = EvalResultRows.selected(resolved.rows.all(), rootIds, summaryIntersection);
                    return roots(projectId, rootIds).map(roots -> answer(page, selected.size(),
                            resolved.rows.summary(summarized, roots), resolved.warnings));
                });
    }

    private static List<String> rootIds(EvalResultsQueryBody body) {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        if (body.evaluationCallIds() != null) {
            ids.addAll(body.evaluationCallIds());
        }
        if (body.evaluationRunIds() != null) {
            ids.addAll(body.evaluationRunIds());
        }
        return new ArrayList<>(ids);
    }

    private EvalResultRows grouped(List<CallSchema> predictAndScores, List<CallSchema> trialChildren, boolean includeRaw) {
        Map<String, List<CallSchema>> byParent = trialChildren.stream().collect(Collectors.groupingBy(CallSchema::parentId));
        EvalResultRows rows = new EvalResultRows(json);
        predictAndScores.forEach(call -> rows.add(call, byParent.getOrDefault(call.id(), List.of()), includeRaw));
        return rows;
    }

    private record Resolved(EvalResultRows rows, List<String> warnings) {
    }

    /** Row refs replaced by the rows they name; when that fails the refs stay, with the reference's warning. */
    private Uni<Resolved> resolved(EvalResultRows rows) {
        List<Row> withRefs = rows.all().stream().filter(row -> row.raw != null && row.raw.isTextual()
                && ParsedRef.parse(row.raw.textValue()).isPresent()).toList();
        if (withRefs.isEmpty()) {
            return Uni.createFrom().item(new Resolved(rows, List.of()));
        }
        return refs.readBatch(withRefs.stream().map(row -> row.raw.textValue()).toList()).map(values -> {
            for (int i = 0; i < withRefs.size(); i++) {
                if (values.get(i) != null && !values.get(i).isNull()) {
                    withRefs.get(i).raw = values.get(i);
                }
            }
            return new Resolved(rows, List.<String>of());
        }).onFailure().recoverWithItem(() -> new Resolved(rows,
                List.of("Failed to resolve dataset row refs; raw_data_row may contain refs")));
    }

    /** The calls whose parent is one of these, asked a thousand parents at a time (the filter's limit). */
    private Uni<List<CallSchema>> children(String projectId, List<String> parentIds) {
        List<Multi<CallSchema>> parts = new ArrayList<>();
        for (int from = 0; from < parentIds.size(); from += CallFilter.MAX_LIST_LENGTH) {
            List<String> chunk = parentIds.subList(from, Math.min(parentIds.size(), from + CallFilter.MAX_LIST_LENGTH));
            parts.add(calls.stream(CallsQuery.in(projectId)
                    .filter(new CallFilter(null, null, null, chunk, null, null, null, null, null, null, null)).build()));
        }
        return parts.isEmpty() ? Uni.createFrom().item(List.of()) : Multi.createBy().concatenating().streams(parts).collect().asList();
    }

    private Uni<Map<String, CallSchema>> roots(String projectId, List<String> rootIds) {
        return calls.stream(CallsQuery.in(projectId)
                        .filter(new CallFilter(null, null, null, null, null, rootIds, null, null, null, null, null)).build())
                .collect().asMap(CallSchema::id, Function.identity());
    }

    private static List<Row> page(List<Row> rows, Long offset, Long limit) {
        int from = (int) Math.min(rows.size(), Math.max(0, offset == null ? 0 : offset));
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
