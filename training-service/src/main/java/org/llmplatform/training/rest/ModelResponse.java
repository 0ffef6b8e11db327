package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.UUID;
import org.llmplatform.training.store.Model;

/** W&B's {@code ModelResponse}; {@code entity} is always filled because ART copies it back into its model. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelResponse(UUID id, String entity, String project, String name, String baseModel, String runId) {

    /** {@code run_id} names a W&B run tracking the model; this service keeps no such run, so it is always null. */
    static ModelResponse of(Model model) {
        return new ModelResponse(model.id(), model.entity(), model.project(), model.name(), model.baseModel(), null);
    }
}
