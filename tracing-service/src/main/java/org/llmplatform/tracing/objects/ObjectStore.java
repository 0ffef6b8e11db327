package org.llmplatform.tracing.objects;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.support.outbox.OutboxMessage;

/** The SQL over {@code tracing.objects}; writes to one object id are serialised by an advisory lock. */
@ApplicationScoped
public class ObjectStore {

    private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1 || '/' || $2, 7))";

    /**
     * Under the object's lock (taken by the statement before, so this one's snapshot sees every version committed
     * before it): the version's index when its digest is live already, else the newest index + 1 for a version
     * inserted as the latest, the previous latest unmarked. A deleted digest published again comes back as the
     * newest version. One statement, so one round trip on the path every new version takes.
     */
    private static final String PUBLISH = """
            WITH state AS (
                SELECT (SELECT coalesce(max(version_index) + 1, 0) FROM tracing.objects
                            WHERE project_id = $1 AND object_id = $2 AND kind = $3) AS next_index,
                       (SELECT version_index FROM tracing.objects
                            WHERE project_id = $1 AND object_id = $2 AND kind = $3 AND digest = $4
                              AND deleted_at IS NULL) AS live_index),
            unmarked AS (
                UPDATE tracing.objects SET is_latest = false
                WHERE project_id = $1 AND object_id = $2 AND kind = $3 AND is_latest
                  AND (SELECT live_index FROM state) IS NULL),
            inserted AS (
                INSERT INTO tracing.objects (project_id, object_id, kind, digest, version_index, is_latest, base_object_class,
                    leaf_object_class, val_dump, svc_user_id, created_at)
                SELECT $1, $2, $3, $4, next_index, true, $5::text, $6::text, $7::text, $8::text, $9::timestamptz FROM state
                WHERE live_index IS NULL
                ON CONFLICT (project_id, object_id, kind, digest) DO UPDATE SET version_index = excluded.version_index,
                    is_latest = true, deleted_at = NULL, created_at = excluded.created_at, svc_user_id = excluded.svc_user_id
                RETURNING version_index)
            SELECT coalesce((SELECT version_index FROM inserted), live_index) AS version_index, live_index IS NULL AS created
            FROM state""";

    private static final String LIVE_VERSIONS = "SELECT " + ObjectVersion.COLUMNS
            + " FROM tracing.objects WHERE project_id = $1 AND object_id = $2 AND deleted_at IS NULL";

    private static final String MARK_DELETED = """
            UPDATE tracing.objects SET deleted_at = $4, is_latest = false
            WHERE project_id = $1 AND object_id = $2 AND digest = ANY($3::text[]) AND deleted_at IS NULL""";

    private static final String RELATEST = """
            UPDATE tracing.objects o SET is_latest = (o.version_index = newest.version_index)
            FROM (SELECT kind, max(version_index) AS version_index FROM tracing.objects
                  WHERE project_id = $1 AND object_id = $2 AND deleted_at IS NULL GROUP BY kind) newest
            WHERE o.project_id = $1 AND o.object_id = $2 AND o.kind = newest.kind AND o.deleted_at IS NULL""";

    private final Pool pool;
    private final Outbox outbox;

    public ObjectStore(Pool pool, Outbox outbox) {
        this.pool = pool;
        this.outbox = outbox;
    }

    /** The outcome of a publish: the version's index, and whether it is new (else the same value was live). */
    public record Published(int versionIndex, boolean created) {
    }

    /**
     * Publishes a version unless the same digest is live already; a new version and the records
     * {@code announce} makes for it (given its index) commit together.
     */
    public Uni<Published> publish(NewObjectVersion version, BiFunction<Integer, OffsetDateTime, List<OutboxMessage>> announce) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        return pool.withTransaction(tx -> lock(tx, version.projectId(), version.objectId())
                .chain(() -> tx.preparedQuery(PUBLISH).execute(Tuple.from(new Object[] {version.projectId(), version.objectId(),
                        version.kind(), version.digest(), version.baseObjectClass(), version.leafObjectClass(), version.valDump(),
                        version.svcUserId(), now})))
                .chain(rows -> {
                    Row row = rows.iterator().next();
                    Published published = new Published(row.getInteger("version_index"), row.getBoolean("created"));
                    return published.created()
                            ? outbox.add(tx, announce.apply(published.versionIndex(), now)).replaceWith(published)
                            : Uni.createFrom().item(published);
                }))
                .invoke(published -> {
                    if (published.created()) {
                        outbox.flush();
                    }
                });
    }

    /** Versions of an object, deleted ones included, chosen by a WHERE fragment over $3. */
    public Uni<List<ObjectVersion>> find(String projectId, String objectId, String condition, Object value) {
        String sql = "SELECT " + ObjectVersion.COLUMNS + " FROM tracing.objects WHERE project_id = $1 AND object_id = $2 AND "
                + condition + " ORDER BY created_at DESC, version_index DESC";
        return pool.preparedQuery(sql).execute(Tuple.of(projectId, objectId, value)).map(ObjectStore::versions);
    }

    /**
     * The versions of an object (deleted ones included) that {@code name} names as an alias, else as a digest: an
     * alias shadows a digest of the same spelling, as in the reference.
     */
    public Uni<List<ObjectVersion>> findByAliasOrDigest(String projectId, String objectId, String name) {
        return find(projectId, objectId, "digest = coalesce((SELECT a.digest FROM tracing.object_aliases a "
                + "WHERE a.project_id = $1 AND a.object_id = $2 AND a.alias = $3), $3)", name);
    }

    /** Versions by digest across object ids, deleted ones included (for ref resolution). */
    public Uni<List<ObjectVersion>> findByDigests(String projectId, Collection<String> digests) {
        return pool.preparedQuery("SELECT " + ObjectVersion.COLUMNS
                        + " FROM tracing.objects WHERE project_id = $1 AND digest = ANY($2::text[])")
                .execute(Tuple.of(projectId, digests.toArray(String[]::new))).map(ObjectStore::versions);
    }

    public Uni<List<ObjectVersion>> query(ObjectQuery query) {
        List<Object> params = new ArrayList<>();
        params.add(query.projectId());
        List<String> conditions = new ArrayList<>(List.of("project_id = $1", "deleted_at IS NULL"));
        ObjectVersionFilter filter = query.filter();
        in("object_id", filter.objectIds(), false, params, conditions);
        in("base_object_class", filter.baseObjectClasses(), false, params, conditions);
        in("base_object_class", filter.excludeBaseObjectClasses(), true, params, conditions);
        in("leaf_object_class", filter.leafObjectClasses(), false, params, conditions);
        if (filter.isOp() != null) {
            conditions.add(filter.isOp() ? "kind = 'op'" : "kind <> 'op'");
        }
        if (Boolean.TRUE.equals(filter.latestOnly())) {
            conditions.add("is_latest");
        }
        labelled(filter, params, conditions);
        List<String> order = new ArrayList<>();
        query.sortBy().forEach(sort -> order.add(sort.column() + (sort.descending() ? " DESC" : " ASC")));
        order.add("created_at ASC");
        order.add("version_index ASC");
        StringBuilder sql = new StringBuilder("SELECT ").append(ObjectVersion.COLUMNS).append(" FROM tracing.objects WHERE ")
                .append(String.join(" AND ", conditions)).append(" ORDER BY ").append(String.join(", ", order));
        if (query.page().limit() != null) {
            params.add(query.page().limit());
            sql.append(" LIMIT $").append(params.size());
        }
        if (query.page().offset() != null) {
            params.add(query.page().offset());
            sql.append(" OFFSET $").append(params.size());
        }
        return pool.preparedQuery(sql.toString()).execute(Tuple.from(params)).map(ObjectStore::versions);
    }

    /**
     * Soft-deletes the live versions {@code choose} picks out of all live versions of the object (it
     * throws to refuse, leaving everything as it was) and moves {@code is_latest}; answers the deleted versions.
     */
    public Uni<List<ObjectVersion>> delete(String projectId, String objectId, Function<List<ObjectVersion>, List<ObjectVersion>> choose) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        return pool.withTransaction(tx -> lock(tx, projectId, objectId)
                .chain(() -> tx.preparedQuery(LIVE_VERSIONS).execute(Tuple.of(projectId, objectId)))
                .map(rows -> choose.apply(versions(rows)))
                .call(chosen -> {
                    String[] digests = chosen.stream().map(ObjectVersion::digest).distinct().toArray(String[]::new);
                    return tx.preparedQuery(MARK_DELETED).execute(Tuple.of(projectId, objectId, digests, now))
                            .chain(() -> ObjectLabelStore.forget(tx, projectId, objectId, digests));
                })
                .call(chosen -> tx.preparedQuery(RELATEST).execute(Tuple.of(projectId, objectId))));
    }

    static Uni<Void> lock(SqlConnection tx, String projectId, String objectId) {
        return tx.preparedQuery(LOCK).execute(Tuple.of(projectId, objectId)).replaceWithVoid();
    }

    /**
     * The tag and alias filters: a version carrying any of the tags, and one any of the aliases names, where
     * {@code latest} names the latest version.
     */
    private static void labelled(ObjectVersionFilter filter, List<Object> params, List<String> conditions) {
        if (filter.tags() != null && !filter.tags().isEmpty()) {
            params.add(filter.tags().toArray(String[]::new));
            conditions.add("(object_id, digest) IN (SELECT t.object_id, t.digest FROM tracing.object_tags t "
                    + "WHERE t.project_id = $1 AND t.tag = ANY($" + params.size() + "::text[]))");
        }
        if (filter.aliases() == null || filter.aliases().isEmpty()) {
            return;
        }
        List<String> named = filter.aliases().stream().filter(alias -> !"latest".equals(alias)).toList();
        List<String> either = new ArrayList<>();
        if (named.size() < filter.aliases().size()) {
            either.add("is_latest");
        }
        if (!named.isEmpty()) {
            params.add(named.toArray(String[]::new));
            either.add("(object_id, digest) IN (SELECT a.object_id, a.digest FROM tracing.object_aliases a "
                    + "WHERE a.project_id = $1 AND a.alias = ANY($" + params.size() + "::text[]))");
        }
        conditions.add("(" + String.join(" OR ", either) + ")");
    }

    private static void in(String column, List<String> values, boolean negate, List<Object> params, List<String> conditions) {
        if (values == null || values.isEmpty()) {
            return;
        }
        params.add(values.toArray(String[]::new));
        conditions.add((negate ? "NOT " : "") + column + " = ANY($" + params.size() + "::text[])");
    }

    static List<ObjectVersion> versions(RowSet<Row> rows) {
        List<ObjectVersion> versions = new ArrayList<>(rows.rowCount());
        rows.forEach(row -> versions.add(ObjectVersion.from(row)));
        return versions;
    }
}
