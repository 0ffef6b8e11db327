package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** The body of {@code POST /v1/preview/models} (W&B's {@code ModelCreate}). */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelCreate(String entity, String project, String name, String baseModel, Boolean returnExisting) {
}
