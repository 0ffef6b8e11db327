package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Something happened to a version of an artifact collection (a checkpoint linked to a model, a new
 * object version, an alias added). Published on {@code artifact.events}, keyed by
 * {@code entity/project/collection}; {@code eventId} is the producer's idempotency key. {@code version}
 * identifies the version as its producer names it (a digest, {@code v<step>}); {@code versionIndex}, optional
 * (absent from records of producers before it), is the version's 0-based index N in the collection, which W&B
 * shows as {@code name:vN}.
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
        Instant occurredAt,
        Integer versionIndex) {

    public static final int SCHEMA_VERSION = 1;

    private static final Pattern INDEX_NAME = Pattern.compile("v(\\d{1,9})");

    /** An event without a version index, as producers before the field published. */
    public ArtifactEvent(int schemaVersion, String eventId, ArtifactEventType eventType, String entity, String project,
            String collection, String version, List<String> aliases, List<String> tags, String author,
            Map<String, Object> metadata, Instant occurredAt) {
        this(schemaVersion, eventId, eventType, entity, project, collection, version, aliases, tags, author, metadata,
                occurredAt, null);
    }

    /**
     * The version's index: {@code versionIndex}, else N of a version or an alias named {@code v<N>} (how
     * producers before the field named it); empty when none says.
     */
    public Optional<Integer> knownVersionIndex() {
        if (versionIndex != null) {
            return Optional.of(versionIndex);
        }
        List<String> names = new ArrayList<>();
        names.add(version);
        if (aliases != null) {
            names.addAll(aliases);
        }
        for (String name : names) {
            Matcher index = name == null ? null : INDEX_NAME.matcher(name);
            if (index != null && index.matches()) {
                return Optional.of(Integer.parseInt(index.group(1)));
            }
        }
        return Optional.empty();
    }

    public String key() {
        return entity + "/" + project + "/" + collection;
    }
}
