package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.query.ExprParser;

/**
 * An upgraded database: calls stored before migration V28 have no search words until {@link SearchTermsBackfill}
 * files them in batches; meanwhile a search reads the calls themselves (exact), and the last batch drops V16's
 * trigram indexes and lets searches ask the words.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class SearchTermsBackfillTest {

    @Inject
    Pool pool;

    @Inject
    Vertx vertx;

    @Inject
    SearchTermsBackfill running;

    @Test
    void callsStoredBeforeTheWordsAreFoundWhileAndAfterTheirWordsAreFiled() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(running::complete);
        String project = "backfill-" + UUID.randomUUID() + "/p";
        // Calls as V27 stored them: no words; a child of the 7th trace says "chimera". V16's index names, as they were.
        execute("""
                INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, attributes, inputs, output)
                SELECT '%1$s', 'c' || g, 't' || (g / 10), CASE WHEN g %% 10 = 0 THEN NULL ELSE 'c' || (g - g %% 10) END,
                    'op', timestamptz '2025-01-01' + g * interval '1 second', '{}',
                    jsonb_build_object('topic', CASE WHEN g = 73 THEN 'a Chimera at dawn' ELSE 'story ' || g END),
                    jsonb_build_object('text', 'the end')
                FROM generate_series(1, %2$d) g;
                CREATE INDEX calls_inputs_text ON tracing.calls USING gin ((inputs::text) tracing.gin_trgm_ops)
                    WHERE project_id = '%1$s';
                CREATE INDEX calls_output_text ON tracing.calls USING gin ((output::text) tracing.gin_trgm_ops)
                    WHERE project_id = '%1$s';
                UPDATE tracing.call_search_terms_backfill SET after_project_id = NULL, after_id = NULL, done = false
                """.formatted(project, 3 * SearchTermsBackfill.BATCH_SIZE / 2));
        SearchTermsBackfill upgraded = new SearchTermsBackfill(pool, vertx);
        CallQueryStore searches = new CallQueryStore(pool, upgraded);

        assertEquals(List.of("c73"), search(searches, project), "before the words are filed the calls are read");
        boolean more = true;
        int batches = 0;
        while (more) {
            more = upgraded.fileBatch().await().atMost(Duration.ofSeconds(60));
            batches++;
            if (more) {
                assertEquals(List.of("c73"), search(searches, project), "between batches the calls are read");
            }
        }
        assertTrue(batches >= 2, "the project's 1,500 calls take more than one batch of 1,000: " + batches);
        assertTrue(upgraded.complete());
        assertEquals(List.of("c73"), search(searches, project), "the traces' words find the call");
        long v16Indexes = pool.query("SELECT count(*) FROM pg_indexes WHERE schemaname = 'tracing'"
                + " AND indexname IN ('calls_inputs_text', 'calls_output_text')").execute().await().indefinitely()
                .iterator().next().getLong(0);
        assertEquals(0, v16Indexes, "the last batch dropped V16's indexes");
        long traces = pool.preparedQuery("SELECT count(DISTINCT trace_id) FROM tracing.call_search_terms WHERE project_id = $1")
                .execute(Tuple.of(project)).await().indefinitely().iterator().next().getLong(0);
        assertEquals(151, traces, "every trace of the project has its words");
        assertTrue(new SearchTermsBackfill(pool, vertx).fileBatch().await().atMost(Duration.ofSeconds(10)) == Boolean.FALSE);
    }

    private static List<String> search(CallQueryStore searches, String project) throws Exception {
        CallsQuery query = CallsQuery.in(project).query(ExprParser.parseQuery(new ObjectMapper().readTree("""
                {"$expr": {"$or": [
                  {"$contains": {"input": {"$getField": "inputs"}, "substr": {"$literal": "chimera"}, "case_insensitive": true}},
                  {"$contains": {"input": {"$getField": "output"}, "substr": {"$literal": "chimera"}, "case_insensitive": true}}]}}
                """))).build();
        return searches.stream(query).collect().asList().await().atMost(Duration.ofSeconds(30)).stream()
                .map(found -> found.call().id()).toList();
    }

    private void execute(String sql) {
        pool.query(sql).execute().await().indefinitely();
    }
}
