package org.llmplatform.tracing.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.store.CallQueryStore;
import org.llmplatform.tracing.store.CallQueryStore.CallStats;
import org.llmplatform.tracing.store.query.CallFilter;
import org.llmplatform.tracing.store.query.CallsQuery;
import org.llmplatform.tracing.store.query.Expr.Operation;
import org.llmplatform.tracing.store.query.ExprParser;
import org.llmplatform.tracing.store.query.SortKey;

/** {@code calls/stream_query}, {@code calls/query} and {@code calls/query_stats}: validation, then the query in SQL. */
@ApplicationScoped
public class CallQueryService {

    static final int MAX_FILTER_LIST_LENGTH = 1000;

    /**
     * A query as the request states it; {@link #sortBy} null means the default order. The query and the
     * sort look through the object refs at {@link #expandColumns}, whether or not the answer shows them expanded.
     */
    public record CallsRequest(String projectId, CallFilter filter, JsonNode query, List<SortBy> sortBy, Long limit,
            Long offset, List<String> columns, boolean includeStorageSize, boolean includeTotalStorageSize,
            boolean includeFeedback, boolean includeCosts, List<String> expandColumns) {
    }

    public record SortBy(String field, String direction) {
    }

    private final CallQueryStore store;
    private final CallService calls;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public CallQueryService(CallQueryStore store, CallService calls, CurrentPrincipal caller, ObjectMapper json) {
        this.store = store;
        this.calls = calls;
        this.caller = caller;
        this.json = json;
    }

    /** The matching calls in order, streamed from the database as the consumer asks for them. */
    public Multi<CallSchema> stream(CallsRequest request) {
        CallsQuery query = toQuery(request, true);
        boolean withSummary = query.columns() == null || query.columns().contains("summary");
        return store.stream(query).map(queried -> {
            CallSchema call = calls.toSchema(queried.call());
            if (!withSummary) {
                return call.withoutSummary();
            }
            ObjectNode weave = (ObjectNode) call.summary().get("weave");
            if (queried.costsJson() != null) {
                weave.set("costs", parse(queried.costsJson()));
            }
            if (queried.feedbackJson() != null) {
                weave.set("feedback", parse(queried.feedbackJson()));
            }
            return call;
        });
    }

    /** {@code call/read}: the query for that one id; null when it is not visible. */
    public Uni<CallSchema> read(String projectId, String id, boolean includeCosts, boolean includeStorageSize,
            boolean includeTotalStorageSize) {
        if (id == null) {
            throw ApiException.missingField("id");
        }
        CallFilter onlyThis = new CallFilter(null, null, null, null, null, List.of(id), null, null, null, null, null);
        return stream(new CallsRequest(projectId, onlyThis, null, null, 1L, null, null, includeStorageSize,
                includeTotalStorageSize, false, includeCosts, null)).collect().first();
    }

    public Uni<CallStats> stats(CallsRequest request) {
        if (request.limit() != null && request.limit() < 1) {
            throw ApiException.badRequest("Limit must be a positive integer");
        }
        return store.stats(toQuery(request, false));
    }

    private CallsQuery toQuery(CallsRequest request, boolean rows) {
        String project = caller.requireProject(request.projectId()).toString();
        if (request.limit() != null && request.limit() < 0) {
            throw ApiException.badRequest("Limit must be a positive integer");
        }
        if (request.offset() != null && request.offset() < 0) {
            throw ApiException.badRequest("Offset must be a positive integer");
        }
        CallFilter filter = request.filter() == null ? CallFilter.NONE : checkLengths(request.filter());
        Operation query = request.query() == null || request.query().isNull()
                ? null
                : ExprParser.parseQuery(request.query(), List.of("body", "query"));
        return new CallsQuery(project, filter, query, rows ? sortKeys(request.sortBy()) : List.of(), request.limit(),
                rows ? request.offset() : null, columns(request.columns(), request.includeCosts()),
                request.includeStorageSize(), request.includeTotalStorageSize(), rows && request.includeFeedback(),
                rows && request.includeCosts(), request.expandColumns());
    }

    private JsonNode parse(String text) {
        return StoredJson.parse(json, text);
    }

    private static List<SortKey> sortKeys(List<SortBy> sortBy) {
        if (sortBy == null) {
            return null;
        }
        List<SortKey> keys = new ArrayList<>();
        for (int i = 0; i < sortBy.size(); i++) {
            SortBy entry = sortBy.get(i);
            List<Object> at = List.of("body", "sort_by", i);
            if (entry == null || entry.field() == null) {
                throw ApiException.invalidField("missing", entry == null ? at : append(at, "field"), "Field required", null);
            }
            String direction = entry.direction() == null ? "" : entry.direction().toLowerCase(Locale.ROOT);
            if (!direction.equals("asc") && !direction.equals("desc")) {
                throw ApiException.invalidField("literal_error", append(at, "direction"), "Input should be 'asc' or 'desc'",
                        entry.direction());
            }
            keys.add(new SortKey(entry.field(), direction.equals("desc")));
        }
        return keys;
    }

    /** The top-level columns to load: the part of each name before its first dot; null for all. */
    private static Set<String> columns(List<String> columns, boolean includeCosts) {
        if (columns == null || columns.isEmpty()) {
            return null;
        }
        Set<String> roots = new HashSet<>();
        for (String column : columns) {
            if (column != null) {
                roots.add(column.split("\\.", 2)[0]);
            }
        }
        if (includeCosts) {
            roots.add("summary");
        }
        if (roots.contains("summary")) {
            // The derived summary.weave needs these.
            roots.addAll(List.of("ended_at", "exception", "display_name"));
        }
        return roots;
    }

    private static CallFilter checkLengths(CallFilter filter) {
        checkLength("op_names", filter.opNames());
        checkLength("input_refs", filter.inputRefs());
        checkLength("output_refs", filter.outputRefs());
        checkLength("parent_ids", filter.parentIds());
        checkLength("trace_ids", filter.traceIds());
        checkLength("call_ids", filter.callIds());
        checkLength("thread_ids", filter.threadIds());
        checkLength("turn_ids", filter.turnIds());
        checkLength("svc_user_ids", filter.svcUserIds());
        checkLength("svc_run_ids", filter.svcRunIds());
        return filter;
    }

    private static void checkLength(String parameter, List<String> values) {
        if (values != null && values.size() > MAX_FILTER_LIST_LENGTH) {
            throw ApiException.badRequest("Parameter: '" + parameter + "' request length is greater than max length ("
                    + MAX_FILTER_LIST_LENGTH + "). Actual length: " + values.size());
        }
    }

    private static List<Object> append(List<Object> at, Object key) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(key);
        return loc;
    }
}
