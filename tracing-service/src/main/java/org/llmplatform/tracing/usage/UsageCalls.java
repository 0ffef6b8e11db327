package org.llmplatform.tracing.usage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.support.messaging.PollConsumer.Refusal;
import org.llmplatform.tracing.calls.CallEndRow;
import org.llmplatform.tracing.calls.CallStartRow;
import org.llmplatform.tracing.calls.CallStore;
import org.llmplatform.tracing.calls.CompletionCalls;
import org.llmplatform.tracing.completions.CompletionService;

/**
 * Records each request the inference gateway reports as a finished call in the caller's project, named
 * {@code inference.} and the API's path (chat completions, legacy completions, embeddings, relayed Responses), with
 * {@code summary.usage} keyed by model, the request as its inputs and the answer as its output (as a client-side
 * tracer records an openai call). One completion is one call: when a client traced it too (its call's
 * output is the completion, with the id the record names), the client's call is that completion's, and the
 * gateway's is not written or is dropped, whichever came first ({@link CompletionCalls}). A request the gateway
 * refused before any model ran it is counted by the gateway's usage totals and is no call: a client that traces
 * records its error itself, and one that does not got the error in its answer. The call id is derived from the request id and start
 * ({@link #callId}), so a redelivered record writes the same call again, which changes nothing. A completion that
 * {@code /completions} tracked (the record names its {@code weave.completions_create} call, which holds
 * the same usage) is that call: the record claims it instead of adding a second one, so every total
 * counts the completion once. A record naming a call that is not a completion call of the record's own
 * project, or one another request claimed, is recorded as usual.
 */
@ApplicationScoped
public class UsageCalls {

    /** The op name of a call recording a request of {@code api}: {@code inference.embeddings} for embeddings */
    static String opName(UsageRecord.Api api) {
        return "inference." + api.path();
    }

    static final String SOURCE = "inference-gateway";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final CallStore store;

    public UsageCalls(CallStore store) {
        this.store = store;
    }

    /**
     * The id of the call that records the completion with this request id, started then: a UUIDv7 of its start
     * made from the request id. A redelivery gets the same id, and ids of later requests sort later, so writing
     * one lands at the end of the call indexes instead of on a random page of each (with name-based UUIDs,
     * those page reads and writes were most of the database's work per gateway request).
     */
    public static String callId(String requestId, Instant startedAt) {
        return Uuids.v7(startedAt, requestId).toString();
    }

    /**
     * Records a poll of usage records, refused requests left out: the claims one by one (records naming a
     * completion call are rare), every other call in one transaction. Answers the records that cannot become a call, with an
     * {@link IllegalArgumentException} each; those are not recorded.
     */
    public Uni<List<Refusal>> recordAll(List<UsageRecord> records) {
        List<Refusal> refusals = new ArrayList<>();
        List<UsageRecord> valid = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            try {
                requireValid(records.get(i));
                valid.add(records.get(i));
            } catch (IllegalArgumentException invalid) {
                refusals.add(new Refusal(i, invalid));
            }
        }
        List<UsageRecord> served = valid.stream().filter(usage -> !UsageRecord.REFUSED.equals(usage.status())).toList();
        return Multi.createFrom().iterable(served)
                .onItem().transformToUniAndConcatenate(usage -> claimed(usage).map(claimed -> claimed ? null : usage))
                .collect().asList()
                .flatMap(unclaimed -> writeCalls(unclaimed.stream().filter(Objects::nonNull).toList()))
                .replaceWith(refusals);
    }

    /** Whether the record's completion call (if it names one) records it, so that it needs no call of its own. */
    private Uni<Boolean> claimed(UsageRecord usage) {
        if (usage.weaveCallId() == null || usage.weaveCallId().isBlank()) {
            return Uni.createFrom().item(false);
        }
        return store.claimForRequest(projectId(usage.projectId()), usage.weaveCallId(), CompletionService.OP_NAME,
                usage.requestId());
    }

    private Uni<Void> writeCalls(List<UsageRecord> usages) {
        if (usages.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<CallStartRow> starts = new ArrayList<>(usages.size());
        List<CallEndRow> ends = new ArrayList<>(usages.size());
        TreeMap<String, CompletionCalls.Link> links = new TreeMap<>();
        for (UsageRecord usage : usages) {
            String projectId = projectId(usage.projectId());
            String id = callId(usage.requestId(), usage.startedAt());
            String completionId = usage.responseId() != null && !usage.responseId().isBlank() ? usage.responseId()
                    : usage.requestId();
            links.putIfAbsent(projectId + '\n' + completionId, new CompletionCalls.Link(projectId, completionId, id));
            ObjectNode attributes = NODES.objectNode().put("source", SOURCE).put("request_id", usage.requestId());
            starts.add(CallStartRow.serverMade(projectId, id, id, opName(usage.api()), utc(usage.startedAt()),
                    attributes.toString(), inputs(usage).toString(), usage.userId()));
            ends.add(new CallEndRow(projectId, id, utc(usage.endedAt()), exception(usage),
                    usage.response() == null ? null : usage.response().toString(), List.of(),
                    summary(usage).toString(), null));
        }
        return store.writeGatewayCalls(starts, ends, List.copyOf(links.values()));
    }

    /** The request as the gateway read it (model, messages, sampling parameters), else (an older record) its model. */
    private static ObjectNode inputs(UsageRecord usage) {
        if (usage.request() instanceof ObjectNode request) {
            return request;
        }
        return NODES.objectNode().put("model", usage.model());
    }

    private static ObjectNode summary(UsageRecord usage) {
        ObjectNode tokens = NODES.objectNode()
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens())
                .put("requests", 1);
        ObjectNode summary = NODES.objectNode();
        summary.putObject("usage").set(usage.model(), tokens);
        return summary;
    }

    private static String exception(UsageRecord usage) {
        if (UsageRecord.SUCCESS.equals(usage.status())) {
            return null;
        }
        String ended = "inference request ended with status '" + usage.status() + "'";
        return usage.error() == null || usage.error().isBlank() ? ended : ended + ": " + usage.error();
    }

    private static void requireValid(UsageRecord usage) {
        if (usage == null) {
            throw new IllegalArgumentException("the usage record is empty");
        }
        requirePresent(usage.requestId(), "request_id");
        requirePresent(usage.projectId(), "project_id");
        requirePresent(usage.model(), "model");
        requirePresent(usage.status(), "status");
        requirePresent(usage.startedAt(), "started_at");
        requirePresent(usage.endedAt(), "ended_at");
        projectId(usage.projectId());
    }

    private static void requirePresent(Object value, String field) {
        if (value == null || value instanceof String text && text.isBlank()) {
            throw new IllegalArgumentException("the usage record has no " + field);
        }
    }

    private static String projectId(String projectId) {
        try {
            return ProjectId.parse(projectId).toString();
        } catch (ApiException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}
