package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * One finished chat completion, published by the gateway on {@code inference.usage}, keyed by project.
 * {@code weaveCallId}, optional, is the call the caller said it tracks the request as (header
 * {@value #WEAVE_CALL_HEADER}): the tracing service's {@code /completions} record the completion themselves.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record UsageRecord(
        int schemaVersion,
        String requestId,
        String projectId,
        String userId,
        String model,
        long promptTokens,
        long completionTokens,
        long latencyMs,
        String status,
        Instant startedAt,
        Instant endedAt,
        String weaveCallId) {

    public static final int SCHEMA_VERSION = 1;

    /** The request header naming the call that tracks a chat completion, copied into {@code weaveCallId}. */
    public static final String WEAVE_CALL_HEADER = "X-Weave-Call-Id";

    /** A record of a request no call tracks. */
    public UsageRecord(int schemaVersion, String requestId, String projectId, String userId, String model, long promptTokens,
            long completionTokens, long latencyMs, String status, Instant startedAt, Instant endedAt) {
        this(schemaVersion, requestId, projectId, userId, model, promptTokens, completionTokens, latencyMs, status, startedAt,
                endedAt, null);
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
