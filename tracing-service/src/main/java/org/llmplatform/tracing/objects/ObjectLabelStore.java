package org.llmplatform.tracing.objects;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.support.outbox.OutboxMessage;

/**
 * The SQL over {@code tracing.object_tags} and {@code tracing.object_aliases}. Labelling a version takes the
 * object's lock, as publishing and deleting do, so that a label never outlives the version it names.
 */
@ApplicationScoped
public class ObjectLabelStore {

    private static final String LIVE_VERSION = "SELECT " + ObjectVersion.COLUMNS + " FROM tracing.objects "
            + "WHERE project_id = $1 AND object_id = $2 AND digest = $3 AND deleted_at IS NULL ORDER BY kind LIMIT 1";

    private static final String ADD_TAGS = """
            INSERT INTO tracing.object_tags (project_id, object_id, digest, tag)
            SELECT $1, $2, $3, tag FROM unnest($4::text[]) AS tag
            ON CONFLICT DO NOTHING""";

    private static final String REMOVE_TAGS = """
            DELETE FROM tracing.object_tags WHERE project_id = $1 AND object_id = $2 AND digest = $3 AND tag = ANY($4::text[])""";

    /** Answers the aliases that were added or moved: one already naming the version is left as it was. */
    private static final String SET_ALIASES = """
            INSERT INTO tracing.object_aliases AS a (project_id, object_id, alias, digest, created_at)
            SELECT $1, $2, alias, $3, $5 FROM unnest($4::text[]) AS alias
            ON CONFLICT (project_id, object_id, alias) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at
            WHERE a.digest <> excluded.digest
            RETURNING alias""";

    private static final String REMOVE_ALIASES = """
            DELETE FROM tracing.object_aliases WHERE project_id = $1 AND object_id = $2 AND alias = ANY($3::text[])""";

    // COLLATE "C" orders by code point, as the reference's sorted() does.
    private static final String TAGS = "SELECT tag FROM tracing.object_tags WHERE project_id = $1 GROUP BY tag "
            + "ORDER BY tag COLLATE \"C\"";
    private static final String ALIASES = "SELECT alias FROM tracing.object_aliases WHERE project_id = $1 "
            + "GROUP BY alias ORDER BY alias COLLATE \"C\"";

    private static final String TAGS_OF = """
            SELECT object_id, digest, tag AS label FROM tracing.object_tags
            WHERE project_id = $1 AND object_id = ANY($2::text[]) AND digest = ANY($3::text[])""";
    private static final String ALIASES_OF = """
            SELECT object_id, digest, alias AS label FROM tracing.object_aliases
            WHERE project_id = $1 AND object_id = ANY($2::text[]) AND digest = ANY($3::text[])""";

    private static final String FORGET_TAGS = """
            DELETE FROM tracing.object_tags WHERE project_id = $1 AND object_id = $2 AND digest = ANY($3::text[])""";
    private static final String FORGET_ALIASES = """
            DELETE FROM tracing.object_aliases WHERE project_id = $1 AND object_id = $2 AND digest = ANY($3::text[])""";

    /** The tags and aliases of one version, each sorted. */
    public record Labels(List<String> tags, List<String> aliases) {

        static final Labels NONE = new Labels(List.of(), List.of());
    }

    /** A version by its object id and digest. */
    public record VersionKey(String objectId, String digest) {
    }

    private final Pool pool;
    private final Outbox outbox;

    public ObjectLabelStore(Pool pool, Outbox outbox) {
        this.pool = pool;
        this.outbox = outbox;
    }

    public Uni<Void> addTags(String projectId, String objectId, String digest, List<String> tags) {
        return pool.withTransaction(tx -> liveVersion(tx, projectId, objectId, digest)
                .chain(version -> tx.preparedQuery(ADD_TAGS).execute(Tuple.of(projectId, objectId, digest,
                        tags.toArray(String[]::new))))
                .replaceWithVoid());
    }

    public Uni<Void> removeTags(String projectId, String objectId, String digest, List<String> tags) {
        return pool.preparedQuery(REMOVE_TAGS).execute(Tuple.of(projectId, objectId, digest, tags.toArray(String[]::new)))
                .replaceWithVoid();
    }

    /**
     * Points the aliases at the live version {@code digest} names, moving those that named another version of the
     * object; the records {@code announce} makes for the aliases added or moved commit with them.
     */
    public Uni<Void> setAliases(String projectId, String objectId, String digest, List<String> aliases,
            BiFunction<ObjectVersion, List<String>, List<OutboxMessage>> announce) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        return pool.withTransaction(tx -> liveVersion(tx, projectId, objectId, digest)
                        .chain(version -> tx.preparedQuery(SET_ALIASES)
                                .execute(Tuple.of(projectId, objectId, digest, aliases.toArray(String[]::new), now))
                                .map(rows -> {
                                    List<String> changed = new ArrayList<>();
                                    rows.forEach(row -> changed.add(row.getString("alias")));
                                    return announce.apply(version, changed);
                                }))
                        .call(messages -> outbox.add(tx, messages)))
                .invoke(messages -> {
                    if (!messages.isEmpty()) {
                        outbox.flush();
                    }
                })
                .replaceWithVoid();
    }

    public Uni<Void> removeAliases(String projectId, String objectId, List<String> aliases) {
        return pool.preparedQuery(REMOVE_ALIASES).execute(Tuple.of(projectId, objectId, aliases.toArray(String[]::new)))
                .replaceWithVoid();
    }

    public Uni<List<String>> tags(String projectId) {
        return names(TAGS, projectId);
    }

    public Uni<List<String>> aliases(String projectId) {
        return names(ALIASES, projectId);
    }

    /** The labels of the given versions; a version without any is absent. */
    public Uni<Map<VersionKey, Labels>> labelsOf(String projectId, Collection<VersionKey> versions) {
        if (versions.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Tuple keys = Tuple.of(projectId, versions.stream().map(VersionKey::objectId).distinct().toArray(String[]::new),
                versions.stream().map(VersionKey::digest).distinct().toArray(String[]::new));
        Map<VersionKey, TreeSet<String>> tags = new HashMap<>();
        Map<VersionKey, TreeSet<String>> aliases = new HashMap<>();
        return pool.preparedQuery(TAGS_OF).execute(keys).invoke(rows -> rows.forEach(row -> collect(row, tags)))
                .chain(() -> pool.preparedQuery(ALIASES_OF).execute(keys))
                .invoke(rows -> rows.forEach(row -> collect(row, aliases)))
                .map(ignored -> {
                    Map<VersionKey, Labels> labels = new HashMap<>();
                    for (VersionKey key : versions) {
                        TreeSet<String> tagged = tags.get(key);
                        TreeSet<String> aliased = aliases.get(key);
                        if (tagged != null || aliased != null) {
                            labels.put(key, new Labels(tagged == null ? List.of() : List.copyOf(tagged),
                                    aliased == null ? List.of() : List.copyOf(aliased)));
                        }
                    }
                    return labels;
                });
    }

    /** Deletes the labels of deleted versions, in the transaction that deletes them. */
    static Uni<Void> forget(SqlConnection tx, String projectId, String objectId, String[] digests) {
        Tuple versions = Tuple.of(projectId, objectId, digests);
        return tx.preparedQuery(FORGET_TAGS).execute(versions)
                .chain(() -> tx.preparedQuery(FORGET_ALIASES).execute(versions))
                .replaceWithVoid();
    }

    private static Uni<ObjectVersion> liveVersion(SqlConnection tx, String projectId, String objectId, String digest) {
        return ObjectStore.lock(tx, projectId, objectId)
                .chain(() -> tx.preparedQuery(LIVE_VERSION).execute(Tuple.of(projectId, objectId, digest)))
                .map(rows -> {
                    List<ObjectVersion> found = ObjectStore.versions(rows);
                    if (found.isEmpty()) {
                        throw ApiException.notFound("Object version " + objectId + ":" + digest + " not found");
                    }
                    return found.get(0);
                });
    }

    private Uni<List<String>> names(String sql, String projectId) {
        return pool.preparedQuery(sql).execute(Tuple.of(projectId)).map(rows -> {
            List<String> names = new ArrayList<>(rows.rowCount());
            rows.forEach(row -> names.add(row.getString(0)));
            return names;
        });
    }

    private static void collect(Row row, Map<VersionKey, TreeSet<String>> into) {
        into.computeIfAbsent(new VersionKey(row.getString("object_id"), row.getString("digest")), key -> new TreeSet<>())
                .add(row.getString("label"));
    }
}
