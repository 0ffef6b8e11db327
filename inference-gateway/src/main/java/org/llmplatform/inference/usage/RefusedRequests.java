package org.llmplatform.inference.usage;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;

/**
 * Publishes a {@link UsageRecord#REFUSED} record for a chat completion request of a known project that the gateway
 * answered with an error before any model ran it (invalid, an unknown model, a limit), so that the project's usage
 * counts it as an errored request. A request whose project is not known (no key, a project the key may not use) is
 * no project's and has none.
 */
@Singleton
public class RefusedRequests {

    /** The model of a refused request that named none. */
    static final String UNKNOWN_MODEL = "unknown";

    private final UsagePublisher usage;

    public RefusedRequests(UsagePublisher usage) {
        this.usage = usage;
    }

    /** {@code body}: the request as it came; {@code arrived}: when it did. */
    public void record(JsonNode body, ProjectId project, String user, Throwable refusal, Instant arrived) {
        JsonNode model = body == null ? null : body.get("model");
        String modelName = model != null && model.isTextual() && !model.textValue().isBlank() ? model.textValue()
                : UNKNOWN_MODEL;
        String error = refusal instanceof ApiException answered ? answered.status() + ": " + answered.getMessage()
                : String.valueOf(refusal.getMessage());
        Instant ended = Instant.now();
        usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, "chatcmpl-" + Uuids.v7(), project.toString(), user,
                modelName, 0, 0, Duration.between(arrived, ended).toMillis(), UsageRecord.REFUSED, arrived, ended, null,
                null, UsageRecord.withinLimit(body), null, error));
    }
}
