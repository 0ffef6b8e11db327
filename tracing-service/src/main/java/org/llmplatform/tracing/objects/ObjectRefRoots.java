package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.common.StoredJson;
import org.llmplatform.tracing.refs.ParsedRef;
import org.llmplatform.tracing.refs.RefResolver.Root;
import org.llmplatform.tracing.refs.RefRoots;

/** The object versions that object and op refs name, for the ref resolver (docs/tracing-service.md#ref-resolution). */
@ApplicationScoped
public class ObjectRefRoots implements RefRoots {

    private final ObjectStore objects;
    private final ObjectMapper json;

    public ObjectRefRoots(ObjectStore objects, ObjectMapper json) {
        this.objects = objects;
        this.json = json;
    }

    /** One query per project for content digests, one per ref by name and alias, tag or {@code latest}. */
    @Override
    public Uni<List<Root>> roots(List<ParsedRef> refs) {
        Map<String, List<String>> digestsByProject = new LinkedHashMap<>();
        for (ParsedRef ref : refs) {
            if (VersionSelector.of(ref.version()).digest() != null) {
                digestsByProject.computeIfAbsent(ref.projectId(), project -> new ArrayList<>()).add(ref.version());
            }
        }
        List<Uni<List<ObjectVersion>>> lookups = new ArrayList<>();
        digestsByProject.forEach((project, digests) -> lookups.add(objects.findByDigests(project, digests)));
        Uni<Map<String, ObjectVersion>> byKey = lookups.isEmpty() ? Uni.createFrom().item(Map.of())
                : Uni.join().all(lookups).andFailFast().map(found -> {
                    Map<String, ObjectVersion> versions = new HashMap<>();
                    found.forEach(list -> list.forEach(version -> versions.merge(
                            key(version.projectId(), version.objectId(), version.digest()), version, ObjectRefRoots::newer)));
                    return versions;
                });
        return byKey.chain(versions -> {
            List<Uni<Root>> roots = new ArrayList<>(refs.size());
            for (ParsedRef ref : refs) {
                VersionSelector selector = VersionSelector.of(ref.version());
                if (selector.digest() != null) {
                    roots.add(Uni.createFrom().item(root(ref, versions.get(key(ref.projectId(), ref.name(), ref.version())))));
                } else {
                    roots.add(objects.find(ref.projectId(), ref.name(), selector.condition(), selector.conditionValue())
                            .map(found -> root(ref, found.isEmpty() ? null : found.get(0))));
                }
            }
            return roots.isEmpty() ? Uni.createFrom().item(List.<Root>of()) : Uni.join().all(roots).andFailFast();
        });
    }

    private Root root(ParsedRef ref, ObjectVersion version) {
        if (version == null) {
            return new Root.Missing("Obj " + ref.name() + ":" + ref.version() + " not found");
        }
        if (version.deleted()) {
            return new Root.Deleted();
        }
        return new Root.Found(StoredJson.parse(json, version.valDump()));
    }

    private static ObjectVersion newer(ObjectVersion a, ObjectVersion b) {
        return a.createdAt().isAfter(b.createdAt()) ? a : b;
    }

    private static String key(String projectId, String objectId, String digest) {
        return projectId + "\n" + objectId + "\n" + digest;
    }
}
