package org.llmplatform.tracing.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;

/**
 * Ingest as the service is and with the trigram indexes a search had before (V16), the first page of a search of inputs and outputs and
 * the id filters over a large project, through the packaged service. Run with {@code bench/search.sh}; not part of
 * the suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class SearchBenchmark extends PackagedServiceBenchmark {

    private static final int CALLS = Integer.getInteger("bench.calls", 1_000_000);
    private static final int RUNS = Integer.getInteger("bench.runs", 20);
    private static final int ALL_CALLS_RUNS = Integer.getInteger("bench.allCallsRuns", 3);
    private static final int INGEST_BATCHES = Integer.getInteger("bench.batches", 40);
    private static final int TRACE_CALLS = Integer.getInteger("bench.traceCalls", 5);
    private static final String TOPICS = "ARRAY['a cat','a dog','a robot','a wizard','a princess','a knight','an owl',"
            + "'a fox','a bear','a pirate','a mermaid','a giant','a troll','an elf','a ghost','a witch','a baker',"
            + "'a sailor','a queen','a king']";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void searchAndIdFilters() throws Exception {
        String user = TestIdentities.unique("bench");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/search";
        ingest(user, key);
        load(project);
        String page = "\"filter\": {\"trace_roots_only\": true}, \"limit\": 50,"
                + " \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"desc\"}]";
        for (String word : new String[] {"dragon", "wizard", "happily", "zzqx"}) {
            measure(project, key, "calls/stream_query", page + ", " + search(word), "search page '" + word + "'");
        }
        measure(project, key, "calls/stream_query", page + ", \"query\": {\"$expr\": {\"$contains\": {\"input\":"
                + " {\"$getField\": \"inputs.arg0.topic\"}, \"substr\": {\"$literal\": \"dragon\"},"
                + " \"case_insensitive\": true}}}", "baseline: page with $contains on inputs.arg0.topic 'dragon'");
        String oldTraces = IntStream.rangeClosed(1, 200).mapToObj(i -> "\"t" + i * 10 + "\"")
                .collect(Collectors.joining(", "));
        String filter = "\"filter\": {\"trace_ids\": [" + oldTraces + "]}";
        measure(project, key, "calls/query_stats", filter, "query_stats trace_ids x200");
        measure(project, key, "calls/stream_query", filter + ", \"limit\": 50, \"sort_by\": [{\"field\": \"started_at\","
                + " \"direction\": \"desc\"}]", "stream_query trace_ids x200 page");
        String oldTraceIds = "[" + IntStream.rangeClosed(1, 200).mapToObj(i -> "{\"$literal\": \"t" + i * 10 + "\"}")
                .collect(Collectors.joining(", ")) + "]";
        String asAny = "\"query\": {\"$expr\": {\"$in\": [{\"$getField\": \"trace_id\"}, " + oldTraceIds + "]}}";
        measure(project, key, "calls/query_stats", asAny, "baseline: query_stats trace_id $in x200 (= ANY)");
        measure(project, key, "calls/stream_query", asAny + ", \"limit\": 50, \"sort_by\": [{\"field\": \"started_at\","
                + " \"direction\": \"desc\"}]", "baseline: stream_query trace_id $in x200 (= ANY) page");
        String oldParents = IntStream.rangeClosed(1, 200).mapToObj(i -> "\"%08d\"".formatted(i * 10))
                .collect(Collectors.joining(", "));
        measure(project, key, "calls/query_stats", "\"filter\": {\"parent_ids\": [" + oldParents + "]}",
                "query_stats parent_ids x200");
        String allCalls = "\"limit\": 50, \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"desc\"}]";
        // Not the console's search box: every call of the traces whose words hold the word is a candidate.
        for (String word : new String[] {"dragon", "wizard"}) {
            measure(project, key, "calls/stream_query", allCalls + ", " + search(word), "search page of all calls '" + word + "'",
                    ALL_CALLS_RUNS);
        }
    }

    /**
     * {@code call/upsert_batch} of calls with ~1 KB inputs and outputs (the shape of {@code CallsBenchmark}) in traces
     * of {@code TRACE_CALLS} (a root and its children), in rounds as the service is (V28: the words of each trace, one
     * trigram index over them) and with V16's trigram indexes on every call's text as well (what the search cost ingest
     * before V28), each created while the table is small; after a warm-up round, the sides take turns so that each
     * sees the same JIT, caches and machine load.
     */
    private void ingest(String user, String key) throws Exception {
        String noise = "lorem ipsum dolor sit amet ".repeat(19);
        List<String> sides = List.of("", searchIndexes());
        String[] labels = {"as the service is (V28)", "with V16's trigram indexes on every call as well"};
        int[] sequence = {0, 0, 1, 0, 1, 0};
        double[] seconds = new double[sides.size()];
        int[] parts = new int[sides.size()];
        for (int round = 0; round < sequence.length; round++) {
            int side = sequence[round];
            execute(DROP_SEARCH_INDEXES + sides.get(side));
            String project = user + "/ingest" + round;
            long began = System.nanoTime();
            for (int b = 0; b < INGEST_BATCHES; b++) {
                StringBuilder batch = new StringBuilder("{\"batch\": [");
                for (int i = 0; i < 250; i++) {
                    String id = project.hashCode() + "-" + b + "-" + i;
                    String root = project.hashCode() + "-" + b + "-" + (i - i % TRACE_CALLS);
                    String parent = i % TRACE_CALLS == 0 ? "null" : "\"" + root + "\"";
                    batch.append(i == 0 ? "" : ",").append(("{\"mode\": \"start\", \"req\": {\"start\": {\"project_id\":"
                            + " \"%s\", \"id\": \"%s\", \"trace_id\": \"%s\", \"parent_id\": %s, \"op_name\": \"bench_op\","
                            + " \"started_at\": \"2025-01-01T12:00:00Z\", \"attributes\": {}, \"inputs\": {\"prompt\": \"%s %s\","
                            + " \"n\": %d}}}}, {\"mode\": \"end\", \"req\": {\"end\": {\"project_id\": \"%s\", \"id\": \"%s\","
                            + " \"ended_at\": \"2025-01-01T12:00:01Z\", \"output\": {\"answer\": \"%s %s\"}, \"summary\": {}}}}")
                            .formatted(project, id, root, parent, noise, UUID.randomUUID(), i, project, id, noise,
                                    UUID.randomUUID()));
                }
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "call/upsert_batch"))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(batch.append("]}").toString())).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("upsert_batch answered " + response.statusCode() + ": " + response.body());
                }
            }
            if (round > 0) {
                seconds[side] += (System.nanoTime() - began) / 1e9;
                parts[side] += INGEST_BATCHES * 500;
            }
        }
        execute(DROP_SEARCH_INDEXES);
        double shipped = parts[0] / seconds[0];
        StringBuilder line = new StringBuilder("BENCH ingest upsert_batch (~1 KB inputs and outputs, traces of "
                + TRACE_CALLS + " calls, " + INGEST_BATCHES + " batches of 500 parts a round): " + labels[0] + " %.0f parts/s"
                .formatted(shipped));
        for (int side = 1; side < sides.size(); side++) {
            double rate = parts[side] / seconds[side];
            line.append(", %s %.0f parts/s (ratio %.2f)".formatted(labels[side], rate, rate / shipped));
        }
        System.out.println(line);
    }

    private static void execute(String sql) throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute("SET search_path = tracing");
            statement.execute(sql);
        }
    }

    /**
     * Traces of ten calls, a topic each; "dragon" in 20 calls, two of them roots; every output says "happily". The
     * rows go in first, then their traces' words are filed as V28 files those of calls written before it.
     */
    private static void load(String project) throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement()) {
            long began = System.nanoTime();
            statement.execute(("""
                    INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, ended_at,
                        attributes, inputs, output, summary, svc_user_id)
                    SELECT '%s', lpad(g::text, 8, '0'), 't' || (g / 10),
                        CASE WHEN g %% 10 = 0 THEN NULL ELSE lpad((g - g %% 10)::text, 8, '0') END, 'op_' || (g %% 5),
                        timestamptz '2025-01-01' + g * interval '1 second',
                        timestamptz '2025-01-01' + g * interval '1 second' + interval '250 milliseconds', '{}',
                        jsonb_build_object('arg0', jsonb_build_object('topic', topic, 'n', g, 'tags',
                                jsonb_build_array('t' || (g %% 50), 'tale')),
                            'messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content',
                                'Write a short story about ' || topic || ' for reader ' || g))),
                        jsonb_build_object('text', 'Once upon a time there was ' || topic || ', number ' || g
                            || ', and they lived happily ever after.', 'tokens', g %% 500),
                        '{}', 'bench'
                    FROM generate_series(1, %d) g, LATERAL (SELECT CASE WHEN g %% 500000 BETWEEN 10 AND 19 THEN 'a Dragon called ' || g ELSE (%s)[(g / 10) %% 20 + 1] END AS topic) t
                    """).formatted(project, CALLS, TOPICS));
            double inserted = (System.nanoTime() - began) / 1e9;
            statement.execute("SELECT tracing.file_search_terms_of_stored_calls('" + project + "')");
            statement.execute("ANALYZE tracing.calls, tracing.call_search_terms");
            System.out.printf("BENCH load: %d calls by INSERT ... SELECT in %.0f s, their traces' words filed in %.0f s%n",
                    CALLS, inserted, (System.nanoTime() - began) / 1e9 - inserted);
        }
    }

    private static String search(String word) {
        String contains = "{\"$contains\": {\"input\": {\"$getField\": \"%s\"}, \"substr\": {\"$literal\": \"" + word
                + "\"}, \"case_insensitive\": true}}";
        return "\"query\": {\"$expr\": {\"$or\": [" + contains.formatted("inputs") + ", " + contains.formatted("output")
                + "]}}";
    }

    private void measure(String project, String key, String path, String body, String label) throws Exception {
        measure(project, key, path, body, label, RUNS);
    }

    private void measure(String project, String key, String path, String body, String label, int runs) throws Exception {
        String request = "{\"project_id\": \"" + project + "\", " + body + "}";
        long[] micros = new long[runs];
        String answer = "";
        for (int i = 0; i < runs; i++) {
            long began = System.nanoTime();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(request)).build(), HttpResponse.BodyHandlers.ofString());
            micros[i] = (System.nanoTime() - began) / 1000;
            if (response.statusCode() != 200) {
                throw new IllegalStateException(label + " answered " + response.statusCode() + ": " + response.body());
            }
            answer = path.endsWith("query_stats") ? response.body() : response.body().lines().count() + " rows";
        }
        Arrays.sort(micros);
        System.out.printf("BENCH %s: p50 %.1f ms, p95 %.1f ms over %d runs (%s)%n", label, micros[runs / 2] / 1000.0,
                micros[runs * 95 / 100] / 1000.0, runs, answer);
    }
}
