package org.llmplatform.automation.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;
import java.util.UUID;

/** An automation: when an event of its type in its scope passes its filter, its webhook is called. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Automation(
        UUID id,
        String name,
        String description,
        boolean enabled,
        Scope scope,
        Event event,
        Action action,
        String createdBy,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt) {

    /** ENTITY (all of a team's projects), PROJECT (a project or registry, optionally one collection), ARTIFACT_COLLECTION. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Scope(String type, String entity, String project, String collection) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Event(String type, JsonNode filter) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Action(String type, UUID webhookId, JsonNode payloadTemplate) {
    }
}
