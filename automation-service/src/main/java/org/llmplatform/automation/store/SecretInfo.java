package org.llmplatform.automation.store;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;

/** What may be said about a secret: never its value. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SecretInfo(String entity, String name, OffsetDateTime createdAt, OffsetDateTime updatedAt) {
}
