package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.objects.ObjectLabelStore.Labels;
import org.llmplatform.tracing.objects.ObjectLabelStore.VersionKey;

/**
 * Tags and aliases on object versions (docs/tracing-service.md#tags-and-aliases): the caller's access first,
 * then the ids' lengths and the names, then the store. Adding a tag or an alias needs a live version; removing
 * one does not.
 */
@ApplicationScoped
public class ObjectLabelService {

    private final ObjectLabelStore store;
    private final ObjectVersionEvents events;
    private final CurrentPrincipal caller;

    public ObjectLabelService(ObjectLabelStore store, ObjectVersionEvents events, CurrentPrincipal caller) {
        this.store = store;
        this.events = events;
        this.caller = caller;
    }

    public Uni<Void> addTags(String projectId, String objectId, String digest, List<String> tags) {
        String project = caller.requireProject(projectId).toString();
        checkVersion(objectId, digest);
        return store.addTags(project, objectId, digest, LabelNames.checkTags(tags));
    }

    public Uni<Void> removeTags(String projectId, String objectId, String digest, List<String> tags) {
        String project = caller.requireProject(projectId).toString();
        checkVersion(objectId, digest);
        return store.removeTags(project, objectId, digest, LabelNames.present("tags", tags));
    }

    /** Points the aliases at the version; each one added or moved is announced as {@code ADD_ARTIFACT_ALIAS}. */
    public Uni<Void> setAliases(String projectId, String objectId, String digest, List<String> aliases) {
        ProjectId project = caller.requireProject(projectId);
        if (digest == null) {
            throw ApiException.missingField("digest");
        }
        FieldLimits.check(objectId, FieldLimits.NAME, "path", "object_id");
        List<String> names = LabelNames.checkAliases(aliases);
        String author = caller.get().userName();
        return store.setAliases(project.toString(), objectId, digest, names, (version, changed) ->
                events.aliased(project, version, changed, author, OffsetDateTime.now(ZoneOffset.UTC)));
    }

    public Uni<Void> removeAliases(String projectId, String objectId, List<String> aliases) {
        String project = caller.requireProject(projectId).toString();
        FieldLimits.check(objectId, FieldLimits.NAME, "path", "object_id");
        return store.removeAliases(project, objectId, LabelNames.present("aliases", aliases));
    }

    public Uni<List<String>> tags(String projectId) {
        return store.tags(requireProject(projectId));
    }

    public Uni<List<String>> aliases(String projectId) {
        return store.aliases(requireProject(projectId));
    }

    /**
     * Sets {@code tags} and {@code aliases} on each version's wire form, sorted; the latest version's aliases
     * begin with {@code latest}, which no stored alias is.
     */
    Uni<List<ObjectNode>> label(String projectId, List<ObjectVersion> versions, List<ObjectNode> nodes) {
        List<VersionKey> keys = versions.stream().map(version -> new VersionKey(version.objectId(), version.digest())).toList();
        return store.labelsOf(projectId, keys).map(labels -> {
            for (int i = 0; i < versions.size(); i++) {
                ObjectVersion version = versions.get(i);
                Labels found = labels.getOrDefault(keys.get(i), Labels.NONE);
                ObjectNode node = nodes.get(i);
                ArrayNode tags = node.putArray("tags");
                found.tags().forEach(tags::add);
                ArrayNode aliases = node.putArray("aliases");
                if (version.isLatest()) {
                    aliases.add("latest");
                }
                found.aliases().forEach(aliases::add);
            }
            return nodes;
        });
    }

    private String requireProject(String projectId) {
        if (projectId == null) {
            throw ApiException.invalidField("missing", List.of("query", "project_id"), "Field required", null);
        }
        return caller.requireProject(projectId).toString();
    }

    private static void checkVersion(String objectId, String digest) {
        FieldLimits.check(objectId, FieldLimits.NAME, "path", "object_id");
        FieldLimits.check(digest, FieldLimits.DIGEST, "path", "digest");
    }
}
