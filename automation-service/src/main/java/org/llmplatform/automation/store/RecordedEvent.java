package org.llmplatform.automation.store;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.llmplatform.model.events.ArtifactEventType;

/** An artifact event as this service stored it, with the time it arrived. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RecordedEvent(
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
        OffsetDateTime occurredAt,
        OffsetDateTime receivedAt) {
}
