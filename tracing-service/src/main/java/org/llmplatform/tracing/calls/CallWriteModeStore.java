package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** The SQL over {@code tracing.call_write_modes} (migration V19). */
@ApplicationScoped
public class CallWriteModeStore {

    /**
     * The mode of each project, deciding it for those that have none yet: 'complete' when the first writer uses the
     * v2 API and the project holds no call, else 'legacy'. A decided mode is kept (the no-op update makes RETURNING
     * answer it, and locks the row so that two first writers agree).
     */
    private static final String DECIDE = """
            INSERT INTO tracing.call_write_modes AS m (project_id, mode)
            SELECT p, CASE WHEN $2 = 'complete'
                AND NOT EXISTS (SELECT 1 FROM tracing.calls c WHERE c.project_id = p) THEN 'complete' ELSE 'legacy' END
            FROM unnest($1::text[]) AS p
            ON CONFLICT (project_id) DO UPDATE SET mode = m.mode
            RETURNING project_id, mode""";

    private final Pool pool;

    public CallWriteModeStore(Pool pool) {
        this.pool = pool;
    }

    /** {@code firstWriterMode} is the mode the API at hand would give a project without calls. */
    public Uni<Map<String, CallWriteModes.Mode>> decide(Collection<String> projectIds, CallWriteModes.Mode firstWriterMode) {
        return pool.preparedQuery(DECIDE)
                .execute(Tuple.of(projectIds.toArray(String[]::new), firstWriterMode.stored()))
                .map(rows -> {
                    Map<String, CallWriteModes.Mode> modes = new HashMap<>();
                    for (Row row : rows) {
                        modes.put(row.getString("project_id"), CallWriteModes.Mode.of(row.getString("mode")));
                    }
                    return modes;
                });
    }
}
