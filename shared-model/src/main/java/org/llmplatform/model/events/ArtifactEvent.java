package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Something happened to a version of an artifact collection (a checkpoint linked to a model, a new
 * object version, an alias added). Published on {@code artifact.events}, keyed by
 * {@code entity/project/collection}; {@code eventId} is the producer's idempotency key.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ArtifactEvent(
        int schemaVersion,
        String eventId,
        ArtifactEventType eventType,
        String entity,
        String project,
        String collection,
        String version,
        List<String> aliases,
        List<String> tags,
        String author,
        Map<String, Object> metadata,
        Instant occurredAt) {

    public static final int SCHEMA_VERSION = 1;

    public String key() {
        return entity + "/" + project + "/" + collection;
    }
}
