package org.llmplatform.tracing.projects;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * The projects that hold data (visible calls or live objects), with their call counts and last activity,
 * for the console's project list.
 */
@ApplicationScoped
public class ProjectStore {

    /** One project; {@code lastActivity} is ISO-8601 UTC. */
    public record ProjectRow(String projectId, long callCount, String lastActivity) {
    }

    // The entity is the project id's first segment; a null entity list means every entity (the admin).
    private static final String SELECT = """
            SELECT project_id, sum(call_count)::bigint AS call_count, tracing.iso_utc(max(last_activity)) AS last_activity
            FROM (
                SELECT project_id, count(*) AS call_count, max(coalesce(ended_at, started_at)) AS last_activity
                FROM tracing.calls
                WHERE started_at IS NOT NULL AND deleted_at IS NULL
                    AND ($1::text[] IS NULL OR split_part(project_id, '/', 1) = ANY($1::text[]))
                GROUP BY project_id
                UNION ALL
                SELECT project_id, 0, max(created_at)
                FROM tracing.objects
                WHERE deleted_at IS NULL AND ($1::text[] IS NULL OR split_part(project_id, '/', 1) = ANY($1::text[]))
                GROUP BY project_id) activity
            GROUP BY project_id
            ORDER BY max(last_activity) DESC, project_id""";

    private final Pool pool;

    public ProjectStore(Pool pool) {
        this.pool = pool;
    }

    /** The projects of these entities, most recently active first; {@code null} for every entity. */
    public Uni<List<ProjectRow>> withData(List<String> entities) {
        Tuple parameters = Tuple.tuple().addArrayOfString(entities == null ? null : entities.toArray(String[]::new));
        return pool.preparedQuery(SELECT).execute(parameters).map(rows -> StreamSupport.stream(rows.spliterator(), false)
                .map(ProjectStore::project).toList());
    }

    private static ProjectRow project(Row row) {
        return new ProjectRow(row.getString("project_id"), row.getLong("call_count"), row.getString("last_activity"));
    }
}
