package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.training.store.JobEvent;

/** An item of the events page: {@code id}, {@code type}, {@code data} as W&B's schema has them, and {@code created_at}. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JobEventResponse(UUID id, String type, Map<String, Object> data, Instant createdAt) {

    static JobEventResponse of(JobEvent event) {
        return new JobEventResponse(event.id(), event.type(), event.data(), event.createdAt());
    }
}
