package org.llmplatform.tracing.usage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallEndRow;
import org.llmplatform.tracing.calls.CallStartRow;
import org.llmplatform.tracing.calls.CallStore;
import org.llmplatform.tracing.completions.CompletionService;

/**
 * Records each chat completion the inference gateway reports as a finished call in the caller's
 * project, with {@code summary.usage} keyed by model. The call id is derived from the request id,
 * so a redelivered record writes the same call again, which changes nothing. A completion that
 * {@code /completions} tracked (the record names its {@code weave.completions_create} call, which holds
 * the same usage) is that call: the record claims it instead of adding a second one, so every total
 * counts the completion once. A record naming a call that is not a completion call of the record's own
 * project, or one another request claimed, is recorded as usual.
 */
@ApplicationScoped
public class UsageCalls {

    static final String OP_NAME = "inference.chat.completions";
    static final String SOURCE = "inference-gateway";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final CallStore store;

    public UsageCalls(CallStore store) {
        this.store = store;
    }

    /** The id of the call that records the completion with this request id. */
    public static String callId(String requestId) {
        return UUID.nameUUIDFromBytes(requestId.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Fails with {@link IllegalArgumentException} for a record that cannot become a call. */
    public Uni<Void> record(UsageRecord usage) {
        requireValid(usage);
        String projectId = projectId(usage.projectId());
        if (usage.weaveCallId() == null || usage.weaveCallId().isBlank()) {
            return recordCall(usage, projectId);
        }
        return store.claimForRequest(projectId, usage.weaveCallId(), CompletionService.OP_NAME, usage.requestId())
                .chain(claimed -> claimed ? Uni.createFrom().voidItem() : recordCall(usage, projectId));
    }

    private Uni<Void> recordCall(UsageRecord usage, String projectId) {
        String id = callId(usage.requestId());
        ObjectNode attributes = NODES.objectNode().put("source", SOURCE).put("request_id", usage.requestId());
        ObjectNode inputs = NODES.objectNode().put("model", usage.model());
        CallStartRow start = CallStartRow.serverMade(projectId, id, id, OP_NAME, utc(usage.startedAt()),
                attributes.toString(), inputs.toString(), usage.userId());
        CallEndRow end = new CallEndRow(projectId, id, utc(usage.endedAt()), exception(usage), null, List.of(),
                summary(usage).toString(), null);
        return store.complete(start, end);
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
        return "success".equals(usage.status()) ? null : "inference request ended with status '" + usage.status() + "'";
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
