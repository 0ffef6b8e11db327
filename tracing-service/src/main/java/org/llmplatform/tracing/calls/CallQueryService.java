package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallQueryStore.CallStats;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.query.Page;

/** {@code calls/stream_query}, {@code calls/query}, {@code calls/query_stats} and {@code call/read}: the caller's project, then the query in SQL. */
@ApplicationScoped
public class CallQueryService {

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
