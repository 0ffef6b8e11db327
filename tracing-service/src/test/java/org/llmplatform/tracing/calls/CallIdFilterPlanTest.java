package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * The id filters read their index, whatever the sort: the plans PostgreSQL makes for the statements of
 * {@code calls/stream_query} and {@code calls/query_stats} over a project of 200,000 calls, filtered by
 * 200 of its oldest traces, calls or parents and sorted newest first (as a walk of the project in
 * started_at order, these took about a second).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallIdFilterPlanTest {

    private static final int CALLS = 200_000;

    @Inject
    Pool pool;

    @Test
    void idFiltersReadTheirIndex() {
        String project = "plans-" + UUID.randomUUID() + "/p";
        pool.query(("""
                INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, inputs, attributes)
                SELECT '%s', 'c' || g, 't' || (g / 10), CASE WHEN g %% 10 = 0 THEN NULL ELSE 'c' || (g - g %% 10) END,
                    'op', timestamptz '2025-01-01' + g * interval '1 second', '{}', '{}'
                FROM generate_series(1, %d) g""").formatted(project, CALLS)).execute().await().indefinitely();
        pool.query("ANALYZE tracing.calls").execute().await().indefinitely();

        List<String> oldTraces = IntStream.rangeClosed(1, 200).mapToObj(i -> "t" + i).toList();
        List<String> oldCalls = IntStream.rangeClosed(1, 200).mapToObj(i -> "c" + i * 10).toList();
        assertReads("calls_by_trace", project, new CallFilter(null, null, null, null, oldTraces, null, null, null, null,
                null, null));
        assertReads("calls_pkey", project, new CallFilter(null, null, null, null, null, oldCalls, null, null, null, null,
                null));
        assertReads("calls_by_parent", project, new CallFilter(null, null, null, oldCalls, null, null, null, null, null,
                null, null));
    }

    private void assertReads(String index, String project, CallFilter filter) {
        CallsQuery query = CallsQuery.in(project).filter(filter).sortBy(List.of(new SortKey("started_at", true)))
                .page(new Page(50L, null)).build();
        for (SqlStatement statement : CallQueryStore.statements(query)) {
            String plan = StreamSupport.stream(pool.preparedQuery("EXPLAIN " + statement.sql())
                            .execute(Tuple.from(statement.params())).await().indefinitely().spliterator(), false)
                    .map((Row row) -> row.getString(0)).reduce("", (all, line) -> all + line + "\n");
            assertTrue(plan.contains(index) && !plan.contains("calls_visible_by_start") && !plan.contains("Seq Scan"),
                    "the plan does not read " + index + " alone:\n" + plan);
        }
    }
}
