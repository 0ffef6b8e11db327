package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.llmplatform.training.store.ModelSummary;

/** W&B's {@code ModelResponse} with the model's latest step and registration time, as a project's model list shows it. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelSummaryResponse(UUID id, String entity, String project, String name, String baseModel, String runId,
        Integer latestStep, Instant createdAt) {

    static ModelSummaryResponse of(ModelSummary summary) {
        ModelResponse model = ModelResponse.of(summary.model());
        return new ModelSummaryResponse(model.id(), model.entity(), model.project(), model.name(), model.baseModel(), model.runId(),
                summary.latestStep(), summary.registeredAt());
    }
}
