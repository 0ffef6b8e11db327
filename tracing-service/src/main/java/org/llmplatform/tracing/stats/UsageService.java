package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.calls.CallQueryService;
import org.llmplatform.tracing.calls.CallSchema;
import org.llmplatform.tracing.calls.CallsQuery;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.stats.UsageRollup.ModelUsage;

/**
 * {@code trace/usage} and {@code calls/usage} (docs/tracing-service.md#usage-roll-up): the calls read through the calls
 * query (the caller's project, filters, costs), their usage rolled up to each ancestor here.
 */
@ApplicationScoped
public class UsageService {

    /** Usage per call id and model, and the ids of the calls read that have not ended. */
    record RolledUp(Map<String, Map<String, ModelUsage>> callUsage, List<String> unfinishedCallIds) {

        /** {@code {call_usage: {call id: {model: LLMAggregatedUsage}}, unfinished_call_ids}}. */
        ObjectNode toJson(ObjectMapper json) {
            ObjectNode answer = json.createObjectNode();
            ObjectNode calls = answer.putObject("call_usage");
            callUsage.forEach((id, models) -> {
                ObjectNode byModel = calls.putObject(id);
                models.forEach((model, usage) -> byModel.set(model, usage.toJson(json)));
            });
            answer.putArray("unfinished_call_ids").addAll(unfinishedCallIds.stream().map(json.getNodeFactory()::textNode).toList());
            return answer;
        }
    }

    private final CallQueryService queries;

    public UsageService(CallQueryService queries) {
        this.queries = queries;
    }

    /** Every call the filter and query keep (at most {@code limit}), each with its descendants' usage among them. */
    public Uni<RolledUp> traceUsage(String projectId, CallFilter filter, JsonNode query, boolean includeCosts, long limit) {
        requirePositive(limit);
        CallsQuery calls = CallsQuery.in(projectId).filter(filter).query(ExprParser.parseOptional(query))
                .page(new Page(limit, null)).costs(includeCosts).build();
        return queries.stream(calls).collect().asList().map(read -> rollUp(read, includeCosts));
    }

    /**
     * Each requested call with its whole trace's usage below it. Traces are read in batches of at most {@code limit}
     * calls: a batch over the limit is halved, a single trace over it is refused (413), as the reference does.
     */
    public Uni<RolledUp> callsUsage(String projectId, List<String> callIds, boolean includeCosts, long limit) {
        requirePositive(limit);
        Set<String> roots = new LinkedHashSet<>(callIds);
        Map<String, Map<String, ModelUsage>> usage = new LinkedHashMap<>();
        roots.forEach(id -> usage.put(id, new LinkedHashMap<>()));
        if (roots.isEmpty()) {
            return Uni.createFrom().item(new RolledUp(usage, List.of()));
        }
        CallsQuery rootCalls = CallsQuery.in(projectId).filter(onlyCalls(null, List.copyOf(roots)))
                .page(new Page((long) roots.size(), null)).build();
        Set<String> unfinished = new TreeSet<>();
        return queries.stream(rootCalls).collect().asList()
                .map(read -> List.copyOf(new TreeSet<>(read.stream().map(CallSchema::traceId).toList())))
                .chain(traceIds -> traceIds.isEmpty() ? Uni.createFrom().voidItem()
                        : batch(projectId, traceIds, includeCosts, limit, roots, usage, unfinished))
                .map(done -> new RolledUp(usage, List.copyOf(unfinished)));
    }

    private Uni<Void> batch(String projectId, List<String> traceIds, boolean includeCosts, long limit, Set<String> roots,
            Map<String, Map<String, ModelUsage>> usage, Set<String> unfinished) {
        CallsQuery traces = CallsQuery.in(projectId).filter(onlyCalls(traceIds, null)).page(new Page(limit + 1, null))
                .costs(includeCosts).build();
        return queries.stream(traces).collect().asList().chain(calls -> {
            if (calls.size() > limit) {
                if (traceIds.size() == 1) {
                    throw new ApiException(413, "Cannot compute complete usage: a single trace exceeds the " + limit
                            + "-call aggregation limit. Increase limit and retry.");
                }
                int middle = traceIds.size() / 2;
                return batch(projectId, traceIds.subList(middle, traceIds.size()), includeCosts, limit, roots, usage, unfinished)
                        .chain(() -> batch(projectId, traceIds.subList(0, middle), includeCosts, limit, roots, usage,
                                unfinished));
            }
            RolledUp rolled = rollUp(calls, includeCosts);
            rolled.callUsage().forEach((id, models) -> {
                if (roots.contains(id)) {
                    usage.put(id, models);
                }
            });
            unfinished.addAll(rolled.unfinishedCallIds());
            return Uni.createFrom().voidItem();
        });
    }

    private static RolledUp rollUp(List<CallSchema> calls, boolean includeCosts) {
        List<String> unfinished = new ArrayList<>();
        calls.forEach(call -> {
            if (call.endedAt() == null) {
                unfinished.add(call.id());
            }
        });
        return new RolledUp(UsageRollup.withDescendants(calls, includeCosts), unfinished);
    }

    private static CallFilter onlyCalls(List<String> traceIds, List<String> callIds) {
        return new CallFilter(null, null, null, null, traceIds, callIds, null, null, null, null, null);
    }

    private static void requirePositive(long limit) {
        if (limit < 1) {
            throw ApiException.badRequest("Usage aggregation limit must be positive");
        }
    }
}
