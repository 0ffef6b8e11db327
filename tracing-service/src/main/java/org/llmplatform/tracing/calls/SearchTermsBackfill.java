package org.llmplatform.tracing.calls;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Files the search words of the calls stored before migration V28 (docs/tracing-service.md#the-words-of-a-trace), in
 * the background: batch after batch in key order, each a transaction of its own under an advisory lock (one replica
 * at a time), the cursor kept in {@code tracing.call_search_terms_backfill}. The last batch drops V16's trigram
 * indexes and marks the words complete; until every replica has read that, its searches read the calls as before,
 * which is always exact, and then ask the traces' words first ({@link #complete()}).
 */
@ApplicationScoped
public class SearchTermsBackfill {

    static final int BATCH_SIZE = 1_000;

    private static final String TRY_LOCK =
            "SELECT pg_try_advisory_xact_lock(hashtextextended('tracing.call_search_terms_backfill', 0))";
    private static final String STATE = "SELECT after_project_id, after_id, done FROM tracing.call_search_terms_backfill";
    private static final String CALLS = """
            SELECT project_id, id, trace_id, started_at, inputs::text AS inputs, output::text AS output
            FROM tracing.calls c WHERE trace_id IS NOT NULL%s ORDER BY project_id, id LIMIT %d""";
    private static final String FIRST_CALLS = CALLS.formatted("", BATCH_SIZE);
    private static final String NEXT_CALLS = CALLS.formatted(" AND (project_id, id) > ($1, $2)", BATCH_SIZE);
    private static final String FILE = """
            INSERT INTO tracing.call_search_terms (project_id, trace_id, started_at, terms)
            SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[])""";
    private static final String MOVE = """
            UPDATE tracing.call_search_terms_backfill SET after_project_id = $1, after_id = $2, done = $3""";
    /** A writer that holds the calls table makes the drop wait at most this, then the round is tried again later. */
    private static final String LOCK_TIMEOUT = "SET LOCAL lock_timeout = '5s'";
    private static final String DROP_V16_INDEXES =
            "DROP INDEX IF EXISTS tracing.calls_inputs_text, tracing.calls_output_text";

    /** What a round did: filed a full batch (more are left), found every word filed, or left the work to another replica. */
    private enum Round { MORE, DONE, ANOTHER_REPLICA }

    private final Pool pool;
    private final PeriodicWorker rounds;
    private volatile boolean complete;

    public SearchTermsBackfill(Pool pool, Vertx vertx) {
        this.pool = pool;
        this.rounds = new PeriodicWorker("Filing the search words of earlier calls", vertx, Duration.ofSeconds(10),
                this::fileBatch);
    }

    void start(@Observes StartupEvent started) {
        rounds.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        rounds.stop();
    }

    /** Whether every call's words are filed, so a search may ask them for its candidates. */
    public boolean complete() {
        return complete;
    }

    /** Files one batch, or reads that another replica finished; answers whether calls are left. */
    Uni<Boolean> fileBatch() {
        if (complete) {
            return Uni.createFrom().item(false);
        }
        return pool.withTransaction(tx -> tx.query(TRY_LOCK).execute().flatMap(locked -> tx.query(STATE).execute()
                .flatMap(state -> {
                    Row cursor = state.iterator().next();
                    if (cursor.getBoolean("done")) {
                        return Uni.createFrom().item(Round.DONE);
                    }
                    if (!locked.iterator().next().getBoolean(0)) {
                        return Uni.createFrom().item(Round.ANOTHER_REPLICA);
                    }
                    String afterProject = cursor.getString("after_project_id");
                    Uni<RowSet<Row>> calls = afterProject == null ? tx.query(FIRST_CALLS).execute()
                            : tx.preparedQuery(NEXT_CALLS).execute(Tuple.of(afterProject, cursor.getString("after_id")));
                    return calls.flatMap(rows -> file(tx, rows));
                })))
                .invoke(round -> {
                    if (round == Round.DONE && !complete) {
                        Log.info("Every call's search words are filed (migration V28); V16's trigram indexes are dropped");
                    }
                    complete = round == Round.DONE;
                })
                .map(round -> round == Round.MORE);
    }

    private static Uni<Round> file(SqlConnection tx, RowSet<Row> calls) {
        Map<List<String>, WordSet> words = new LinkedHashMap<>();
        Map<List<String>, OffsetDateTime> latestStart = new LinkedHashMap<>();
        Row last = null;
        for (Row call : calls) {
            List<String> trace = List.of(call.getString("project_id"), call.getString("trace_id"));
            WordSet traceWords = words.computeIfAbsent(trace, ignored -> new WordSet());
            SearchTerms.addDocumentWords(call.getString("inputs"), traceWords);
            SearchTerms.addDocumentWords(call.getString("output"), traceWords);
            OffsetDateTime started = call.getOffsetDateTime("started_at");
            if (started != null) {
                latestStart.merge(trace, started, (one, other) -> one.isAfter(other) ? one : other);
            }
            last = call;
        }
        List<String> projects = new ArrayList<>();
        List<String> traces = new ArrayList<>();
        List<OffsetDateTime> starts = new ArrayList<>();
        List<String> terms = new ArrayList<>();
        words.forEach((trace, traceWords) -> {
            if (!traceWords.isEmpty()) {
                projects.add(trace.get(0));
                traces.add(trace.get(1));
                starts.add(latestStart.get(trace));
                terms.add(traceWords.joined());
            }
        });
        boolean more = calls.size() == BATCH_SIZE;
        Uni<Void> filed = tx.preparedQuery(FILE).execute(Tuple.of(projects.toArray(String[]::new),
                traces.toArray(String[]::new), starts.toArray(OffsetDateTime[]::new), terms.toArray(String[]::new)))
                .replaceWithVoid();
        Tuple moved = Tuple.of(last == null ? null : last.getString("project_id"), last == null ? null : last.getString("id"),
                !more);
        if (more) {
            return filed.chain(() -> tx.preparedQuery(MOVE).execute(moved)).replaceWith(Round.MORE);
        }
        return filed.chain(() -> tx.query(LOCK_TIMEOUT).execute())
                .chain(() -> tx.query(DROP_V16_INDEXES).execute())
                .chain(() -> tx.preparedQuery(MOVE).execute(moved))
                .replaceWith(Round.DONE);
    }
}
