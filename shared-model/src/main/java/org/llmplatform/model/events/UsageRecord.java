package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/** One finished chat completion, published by the gateway on {@code inference.usage}, keyed by project. */
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
        Instant endedAt) {

    public static final int SCHEMA_VERSION = 1;

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
