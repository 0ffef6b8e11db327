package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An automation as a request gives it. Creation needs name, scope, event and action; an update may give
 * any of them and keeps the rest. The scope is {@code {type: ENTITY, entity}}, {@code {type: PROJECT,
 * project: "entity/project", collection?}} (a registry is a project) or {@code {type: ARTIFACT_COLLECTION,
 * project, collection}}; the action {@code {type: WEBHOOK, webhook_id, payload_template}}.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AutomationInput(String name, String description, Boolean enabled, Scope scope, Event event, Action action) {

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
    public record Action(String type, String webhookId, JsonNode payloadTemplate) {
    }
}
