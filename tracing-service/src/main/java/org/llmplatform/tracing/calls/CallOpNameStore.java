package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The distinct op names of a project's visible calls, by skipping through the {@code calls_visible_by_op} index:
 * one index probe per distinct name (the next name after the last), so the cost follows the number of names, not
 * of calls. The index orders by {@code text_pattern_ops}, hence the {@code ~<~} / {@code ~>~} byte order.
 */
@ApplicationScoped
public class CallOpNameStore {

    private static final String DISTINCT_OP_NAMES = """
            WITH RECURSIVE names(op_name) AS (
                (SELECT c.op_name FROM tracing.calls c
                 WHERE c.project_id = $1 AND c.started_at IS NOT NULL AND c.deleted_at IS NULL
                 ORDER BY c.op_name USING ~<~ LIMIT 1)
                UNION ALL
                SELECT (SELECT c.op_name FROM tracing.calls c
                        WHERE c.project_id = $1 AND c.started_at IS NOT NULL AND c.deleted_at IS NULL
                            AND c.op_name ~>~ names.op_name
                        ORDER BY c.op_name USING ~<~ LIMIT 1)
                FROM names WHERE names.op_name IS NOT NULL)
            SELECT op_name FROM names WHERE op_name IS NOT NULL LIMIT $2""";

    private final Pool pool;

    public CallOpNameStore(Pool pool) {
        this.pool = pool;
    }

    /** At most {@code limit} names, in byte order. */
    public Uni<List<String>> distinctOpNames(String projectId, int limit) {
        return pool.preparedQuery(DISTINCT_OP_NAMES).execute(Tuple.of(projectId, limit)).map(rows -> {
            List<String> names = new ArrayList<>();
            for (Row row : rows) {
                names.add(row.getString("op_name"));
            }
            return names;
        });
    }
}
