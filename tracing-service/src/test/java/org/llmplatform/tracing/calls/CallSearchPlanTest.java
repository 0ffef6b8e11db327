package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.query.SqlStatement;

/**
 * A page of a search (the console's, of trace roots, and one of every call, as an op filter or the API asks it),
 * newest first, finds the traces of a word its first calls do not hold in the traces' words (migration V28) and reads
 * their calls by trace, not the project's calls: the plan PostgreSQL makes for the statements of
 * {@code calls/stream_query} over a project of 200,000 calls in traces of ten, written in one statement with their
 * traces' words filed as V28 files those of calls written before it. At this size PostgreSQL reads the 20,000 rows of
 * words whole rather than by their trigram index; {@code bench/scale.sh} measures the index at millions of calls.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallSearchPlanTest {

    private static final int CALLS = 200_000;

    @Inject
    Pool pool;

    @Test
    void aSearchOfRootsOrOfAllCallsReadsItsTracesByTheirWords() throws Exception {
        String project = "search-plans-" + UUID.randomUUID() + "/p";
        pool.query(("""
                INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, attributes, inputs,
                    output)
                SELECT '%s', 'c' || g, 't' || (g / 10), CASE WHEN g %% 10 = 0 THEN NULL ELSE 'c' || (g - g %% 10) END,
                    'op', timestamptz '2025-01-01' + g * interval '1 second', '{}',
                    jsonb_build_object('arg0', jsonb_build_object('topic', 'a story of number ' || g)),
                    jsonb_build_object('text', 'they lived happily ever after, ' || g)
                FROM generate_series(1, %d) g""").formatted(project, CALLS)).execute().await().indefinitely();
        pool.preparedQuery("SELECT tracing.file_search_terms_of_stored_calls($1)").execute(Tuple.of(project))
                .await().indefinitely();
        pool.query("ANALYZE tracing.calls, tracing.call_search_terms").execute().await().indefinitely();

        for (Boolean rootsOnly : new Boolean[] {true, null}) {
            CallsQuery query = CallsQuery.in(project)
                    .filter(new CallFilter(null, null, null, null, null, null, null, null, rootsOnly, null, null))
                    .query(ExprParser.parseQuery(new ObjectMapper().readTree("""
                            {"$expr": {"$or": [
                              {"$contains": {"input": {"$getField": "inputs"}, "substr": {"$literal": "dragon"}, "case_insensitive": true}},
                              {"$contains": {"input": {"$getField": "output"}, "substr": {"$literal": "dragon"}, "case_insensitive": true}}]}}""")))
                    .sortBy(List.of(new SortKey("started_at", true))).page(new Page(50L, null)).build();
            for (SqlStatement statement : CallQueryStore.statements(query)) {
                String plan = StreamSupport.stream(pool.preparedQuery("EXPLAIN " + statement.sql())
                                .execute(Tuple.from(statement.params())).await().indefinitely().spliterator(), false)
                        .map((Row row) -> row.getString(0)).reduce("", (all, line) -> all + line + "\n");
                assertTrue(plan.contains("on call_search_terms") && plan.contains("calls_by_trace"),
                        "the search (trace_roots_only " + rootsOnly + ") does not read its traces by their words:\n" + plan);
            }
        }
    }
}
