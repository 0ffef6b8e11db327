package org.llmplatform.training.store;

import java.util.UUID;

/** A registered model: a name within {@code entity/project}, trained on top of {@code baseModel}. */
public record Model(UUID id, String entity, String project, String name, String baseModel) {
}
