package org.llmplatform.automation.store;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A team's webhook endpoint; its secrets are referenced by name, never carried. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Webhook(
        UUID id,
        String entity,
        String name,
        String url,
        String accessTokenSecret,
        String secret,
        boolean enabled,
        String disabledReason,
        OffsetDateTime failingSince,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt) {
}
