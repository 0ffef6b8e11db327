package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A webhook as a request gives it. On creation {@code entity}, {@code name} and {@code url} are required;
 * on update every field is optional and an absent one keeps its value (an empty secret name removes it).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record WebhookInput(String entity, String name, String url, String accessTokenSecret, String secret, Boolean enabled) {
}
