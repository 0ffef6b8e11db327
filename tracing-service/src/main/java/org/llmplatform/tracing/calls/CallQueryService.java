package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallQueryStore.CallStats;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.query.Page;

/** {@code calls/stream_query}, {@code calls/query}, {@code calls/query_stats} and {@code call/read}: the caller's project, then the query in SQL. */
@ApplicationScoped
public class CallQueryService {

    /** The most names {@code calls/op_names} answers (each op version is a name of its own). */
    static final int OP_NAMES_LIMIT = 1000;

    private final CallQueryStore store;
    private final CallOpNameStore opNames;
    private final CallService calls;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public CallQueryService(CallQueryStore store, CallOpNameStore opNames, CallService calls, CurrentPrincipal caller,
            ObjectMapper json) {
        this.store = store;
        this.opNames = opNames;
        this.calls = calls;
        this.caller = caller;
        this.json = json;
    }

    /** {@code calls/op_names}: every op name of the project's visible calls, at any depth, in byte order. */
    public Uni<List<String>> opNames(String projectId) {
        return opNames.distinctOpNames(caller.requireProject(projectId).toString(), OP_NAMES_LIMIT);
    }

    /** The matching calls in order, streamed from the database as the consumer asks for them. */
    public Multi<CallSchema> stream(CallsQuery query) {
        caller.requireProject(query.projectId());
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
        return stream(CallsQuery.in(projectId).filter(CallFilter.onlyCall(id)).page(new Page(1L, null))
                .storageSize(includeStorageSize).totalStorageSize(includeTotalStorageSize).costs(includeCosts).build())
                .collect().first();
    }

    public Uni<CallStats> stats(CallsQuery query) {
        caller.requireProject(query.projectId());
        return store.stats(query);
    }

    private JsonNode parse(String text) {
        return StoredJson.parse(json, text);
    }
}
