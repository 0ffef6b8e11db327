package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.digest.Digests.Canonical;
import org.llmplatform.tracing.digest.Digests;

/** Publishing, reading, querying and soft-deleting object versions (docs/tracing-service.md#objects). */
@ApplicationScoped
public class ObjectService {

    static final int MAX_DELETED_DIGESTS = 100;
    private static final Pattern OBJECT_NAME = Pattern.compile("[\\w.-]{1,128}", Pattern.UNICODE_CHARACTER_CLASS);

    /** What {@code obj/create} is asked to publish. */
    public record NewObject(String projectId, String objectId, JsonNode val, String builtinObjectClass, String expectedDigest) {
    }

    /** The filters and page of {@code objs/query}; null lists constrain nothing. */
    private final ObjectStore store;
    private final ObjectLabelService labels;
    private final ObjectVersionEvents events;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public ObjectService(ObjectStore store, ObjectLabelService labels, ObjectVersionEvents events, CurrentPrincipal caller,
            ObjectMapper json) {
        this.store = store;
        this.labels = labels;
        this.events = events;
        this.caller = caller;
        this.json = json;
    }

    /** Publishes a version unless the same value is the object's live version already; answers its digest. */
    public Uni<String> create(NewObject object) {
        if (object.objectId() == null) {
            throw ApiException.invalidField("missing", List.of("body", "obj", "object_id"), "Field required", null);
        }
        if (object.val() == null) {
            throw ApiException.invalidField("missing", List.of("body", "obj", "val"), "Field required", null);
        }
        ProjectId project = caller.requireProject(object.projectId());
        checkObjectName(object.objectId());
        ObjectClasses.Classified classified = ObjectClasses.classify(object.val(), object.builtinObjectClass());
        checkFileKeys(classified.value());
        Canonical canonical = Digests.canonical(classified.value());
        if (object.expectedDigest() != null && !object.expectedDigest().equals(canonical.digest())) {
            throw ApiException.conflict("Digest mismatch: expected " + object.expectedDigest() + " but the value hashes to "
                    + canonical.digest());
        }
        NewObjectVersion version = new NewObjectVersion(project.toString(), object.objectId(), classified.kind(),
                canonical.digest(), classified.baseObjectClass(), classified.leafObjectClass(), canonical.json(),
                caller.get().userName());
        return store.publish(version, (index, at) -> events.published(project, version, index, at))
                .replaceWith(canonical.digest());
    }

    /**
     * Reads the version {@code digest} names: {@code latest}, {@code v<N>}, a content digest, or else an alias of
     * the object (falling back to a digest of that spelling).
     */
    public Uni<ObjectNode> read(String projectId, String objectId, String digest, boolean metadataOnly,
            boolean includeTagsAndAliases) {
        String project = caller.requireProject(projectId).toString();
        if (objectId == null) {
            throw ApiException.missingField("object_id");
        }
        if (digest == null) {
            throw ApiException.missingField("digest");
        }
        VersionSelector selector = VersionSelector.of(digest);
        Uni<List<ObjectVersion>> found = selector.digest() != null && LabelNames.mayBeAlias(digest)
                ? store.findByAliasOrDigest(project, objectId, digest)
                : store.find(project, objectId, selector.condition(), selector.conditionValue());
        return found.chain(versions -> {
            if (versions.isEmpty()) {
                throw ApiException.notFound("Obj " + objectId + ":" + digest + " not found");
            }
            ObjectVersion version = versions.get(0);
            if (version.deleted()) {
                String deletedAt = Timestamps.format(version.deletedAt());
                throw new ObjectDeletedException(objectId + ":v" + version.versionIndex() + " was deleted at " + deletedAt,
                        deletedAt);
            }
            ObjectNode obj = schema(version, metadataOnly, false);
            return includeTagsAndAliases
                    ? labels.label(project, List.of(version), List.of(obj)).map(labelled -> labelled.get(0))
                    : Uni.createFrom().item(obj);
        });
    }

    public Uni<List<ObjectNode>> query(ObjectQuery query) {
        String project = caller.requireProject(query.projectId()).toString();
        return store.query(query).chain(versions -> {
            List<ObjectNode> objs = versions.stream()
                    .map(version -> schema(version, query.metadataOnly(), query.includeStorageSize())).toList();
            return query.includeTagsAndAliases() ? labels.label(project, versions, objs) : Uni.createFrom().item(objs);
        });
    }

    /**
     * Soft-deletes the named versions (all live ones without {@code digests}); when any name does not
     * resolve to a live version nothing is deleted. Answers how many versions were deleted.
     */
    public Uni<Integer> delete(String projectId, String objectId, List<String> digests) {
        String project = caller.requireProject(projectId).toString();
        if (objectId == null) {
            throw ApiException.missingField("object_id");
        }
        if (digests != null && digests.size() > MAX_DELETED_DIGESTS) {
            throw ApiException.badRequest("Object delete request contains " + digests.size()
                    + " objects. Please delete " + MAX_DELETED_DIGESTS + " or fewer objects at a time.");
        }
        if (digests != null && digests.contains(null)) {
            throw ApiException.badRequest("digests may not contain null");
        }
        Set<String> requested = digests == null ? null : new LinkedHashSet<>(digests);
        return store.delete(project, objectId, live -> chooseDeleted(objectId, live, requested)).map(List::size);
    }

    private static List<ObjectVersion> chooseDeleted(String objectId, List<ObjectVersion> live, Set<String> requested) {
        if (requested == null) {
            if (live.isEmpty()) {
                throw ApiException.notFound("Object " + objectId + " (None) not found when deleting.");
            }
            return live;
        }
        List<ObjectVersion> chosen = new ArrayList<>();
        Set<String> unresolved = new LinkedHashSet<>();
        for (String name : requested) {
            VersionSelector selector = VersionSelector.of(name);
            List<ObjectVersion> matching = live.stream().filter(selector::matches).toList();
            if (matching.isEmpty()) {
                unresolved.add(name);
            }
            matching.stream().filter(version -> !chosen.contains(version)).forEach(chosen::add);
        }
        if (chosen.isEmpty()) {
            throw ApiException.notFound("Object " + objectId + " (" + pythonList(requested) + ") not found when deleting.");
        }
        if (!unresolved.isEmpty()) {
            throw ApiException.notFound("Delete request contains " + requested.size() + " digests, but found "
                    + (requested.size() - unresolved.size()) + " objects to delete. Diff digests: "
                    + unresolved.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", ", "{", "}")));
        }
        return chosen;
    }

    private static String pythonList(Set<String> names) {
        return names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", ", "[", "]"));
    }

    /** The wire form of a version ({@code ObjSchema}). */
    ObjectNode schema(ObjectVersion version, boolean metadataOnly, boolean includeStorageSize) {
        ObjectNode obj = json.createObjectNode();
        obj.put("project_id", version.projectId());
        obj.put("object_id", version.objectId());
        obj.put("created_at", Timestamps.format(version.createdAt()));
        obj.put("deleted_at", version.deletedAt() == null ? null : Timestamps.format(version.deletedAt()));
        obj.put("digest", version.digest());
        obj.put("version_index", version.versionIndex());
        obj.put("is_latest", version.isLatest() ? 1 : 0);
        obj.put("kind", version.kind());
        obj.put("base_object_class", version.baseObjectClass());
        obj.put("leaf_object_class", version.leafObjectClass());
        obj.set("val", metadataOnly ? json.createObjectNode() : StoredJson.parse(json, version.valDump()));
        obj.put("svc_user_id", version.svcUserId());
        if (includeStorageSize) {
            obj.put("size_bytes", version.valDump().getBytes(StandardCharsets.UTF_8).length);
        }
        return obj;
    }

    static void checkObjectName(String name) {
        if (!OBJECT_NAME.matcher(name).matches()) {
            String problem = name.isEmpty() ? "Must not be empty" : name.length() > 128 ? "Must be at most 128 characters"
                    : "Contains invalid characters. Please use only alphanumeric characters, underscores, hyphens and periods";
            throw new ApiException(422, "Invalid object name: " + name + ". " + problem + ".");
        }
    }

    /** The file names of a custom type are paths inside it: relative, without {@code ..}. */
    private static void checkFileKeys(JsonNode value) {
        JsonNode files = value.path("files");
        if (!value.path("_type").asText("").equals("CustomWeaveType") || !files.isObject()) {
            return;
        }
        for (Iterator<String> names = files.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            String normalized = name.replace('\\', '/');
            boolean escapes = normalized.startsWith("/") || normalized.matches("(?i)^[a-z]:.*")
                    || List.of(normalized.split("/")).contains("..");
            if (escapes || name.isEmpty()) {
                throw ApiException.badRequest("Invalid file key '" + name + "' in files: keys must be relative paths "
                        + "without '..'");
            }
        }
    }
}
