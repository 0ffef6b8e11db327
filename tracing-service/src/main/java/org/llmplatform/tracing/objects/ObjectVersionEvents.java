package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.outbox.OutboxMessage;

/**
 * A new object version is a new version of the artifact collection named by the object id: it is
 * created (version = digest, version index = N) and the aliases {@code latest} and {@code v<N>} move to it,
 * so automations can watch dataset or prompt versions.
 */
@ApplicationScoped
public class ObjectVersionEvents {

    private final ObjectMapper json;

    public ObjectVersionEvents(ObjectMapper json) {
        this.json = json;
    }

    public List<OutboxMessage> published(ProjectId project, NewObjectVersion version, int versionIndex, OffsetDateTime at) {
        List<String> aliases = List.of("latest", "v" + versionIndex);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("artifact_type", version.kind());
        metadata.put("version_index", versionIndex);
        if (version.baseObjectClass() != null) {
            metadata.put("base_object_class", version.baseObjectClass());
        }
        if (version.leafObjectClass() != null) {
            metadata.put("leaf_object_class", version.leafObjectClass());
        }
        return List.of(event(project, version, versionIndex, ArtifactEventType.CREATE_ARTIFACT, aliases, metadata, at),
                event(project, version, versionIndex, ArtifactEventType.ADD_ARTIFACT_ALIAS, aliases, metadata, at));
    }

    private OutboxMessage event(ProjectId project, NewObjectVersion version, int versionIndex, ArtifactEventType type,
            List<String> aliases, Map<String, Object> metadata, OffsetDateTime at) {
        ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(), type,
                project.entity(), project.project(), version.objectId(), version.digest(), aliases, List.of(),
                version.svcUserId(), metadata, at.toInstant(), versionIndex);
        try {
            return new OutboxMessage(Topics.ARTIFACT_EVENTS, event.key(), json.writeValueAsString(event));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an artifact event could not be written", e);
        }
    }
}
