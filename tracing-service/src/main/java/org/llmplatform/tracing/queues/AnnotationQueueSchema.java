package org.llmplatform.tracing.queues;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** A queue as the API returns it; datetimes already formatted, {@code deleted_at} null while it lives. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AnnotationQueueSchema(String id, String projectId, String name, String description,
        List<String> scorerRefs, String createdAt, String createdBy, String updatedAt, String deletedAt) {
}
