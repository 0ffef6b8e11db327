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
 * so automations can watch dataset or prompt versions. An alias a user adds to a version, or moves to it, is
 * announced alone, so that {@code ${artifact_version_string}} ends in that alias.
 */
@ApplicationScoped
public class ObjectVersionEvents {

    private final ObjectMapper json;

    public ObjectVersionEvents(ObjectMapper json) {
        this.json = json;
    }

    public List<OutboxMessage> published(ProjectId project, NewObjectVersion version, int versionIndex, OffsetDateTime at) {
        List<String> aliases = List.of("latest", "v" + versionIndex);
        Map<String, Object> metadata = metadata(version.kind(), versionIndex, version.baseObjectClass(),
                version.leafObjectClass());
        Subject subject = new Subject(project, version.objectId(), version.digest(), versionIndex, version.svcUserId());
        return List.of(event(subject, ArtifactEventType.CREATE_ARTIFACT, aliases, metadata, at),
                event(subject, ArtifactEventType.ADD_ARTIFACT_ALIAS, aliases, metadata, at));
    }

    /** One {@code ADD_ARTIFACT_ALIAS} per alias added to {@code version} or moved to it, by {@code author}. */
    public List<OutboxMessage> aliased(ProjectId project, ObjectVersion version, List<String> aliases, String author,
            OffsetDateTime at) {
        Map<String, Object> metadata = metadata(version.kind(), version.versionIndex(), version.baseObjectClass(),
                version.leafObjectClass());
        Subject subject = new Subject(project, version.objectId(), version.digest(), version.versionIndex(), author);
        return aliases.stream()
                .map(alias -> event(subject, ArtifactEventType.ADD_ARTIFACT_ALIAS, List.of(alias), metadata, at))
                .toList();
    }

    /** The version an event is about, and who caused it. */
    private record Subject(ProjectId project, String objectId, String digest, int versionIndex, String author) {
    }

    private static Map<String, Object> metadata(String kind, int versionIndex, String baseObjectClass, String leafObjectClass) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("artifact_type", kind);
        metadata.put("version_index", versionIndex);
        if (baseObjectClass != null) {
            metadata.put("base_object_class", baseObjectClass);
        }
        if (leafObjectClass != null) {
            metadata.put("leaf_object_class", leafObjectClass);
        }
        return metadata;
    }

    private OutboxMessage event(Subject subject, ArtifactEventType type, List<String> aliases, Map<String, Object> metadata,
            OffsetDateTime at) {
        ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(), type,
                subject.project().entity(), subject.project().project(), subject.objectId(), subject.digest(), aliases,
                List.of(), subject.author(), metadata, at.toInstant(), subject.versionIndex());
        try {
            return new OutboxMessage(Topics.ARTIFACT_EVENTS, event.key(), json.writeValueAsString(event));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an artifact event could not be written", e);
        }
    }
}
