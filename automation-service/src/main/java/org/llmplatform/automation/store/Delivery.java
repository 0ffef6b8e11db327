package org.llmplatform.automation.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** One execution of an automation for one event, with every attempt; the payload has its secrets masked. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Delivery(
        UUID id,
        UUID automationId,
        String eventId,
        String eventType,
        UUID webhookId,
        String status,
        int attemptCount,
        OffsetDateTime nextAttemptAt,
        Integer lastStatusCode,
        String lastError,
        JsonNode payload,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt,
        List<Attempt> attempts) {

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Attempt(int attemptNumber, String trigger, OffsetDateTime startedAt, long durationMs, Integer statusCode,
            String responseBody, String error, boolean succeeded) {
    }
}
