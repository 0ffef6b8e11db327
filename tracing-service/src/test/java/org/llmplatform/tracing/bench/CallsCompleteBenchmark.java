package org.llmplatform.tracing.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.TestIdentities;

/**
 * Ingest of the same calls through {@code POST /v2/{entity}/{project}/calls/complete} (one record per call, as
 * today's SDKs send them) and through {@code call/upsert_batch} (a start and an end item per call), in one run,
 * against the packaged tracing-service ({@link PackagedServiceBenchmark}). Run with {@code bench/calls-complete.sh};
 * not part of the suite.
 */
class CallsCompleteBenchmark extends PackagedServiceBenchmark {

    private static final int CALLS_PER_REQUEST = Integer.getInteger("bench.callsPerRequest", 250);
    private static final int REQUESTS = Integer.getInteger("bench.requests", 40);
    private static final int WARMUP_REQUESTS = Integer.getInteger("bench.warmup", 60);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
    private static final String NOISE = "lorem ipsum dolor sit amet ".repeat(19);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String key;

    @Test
    void callsCompleteAgainstUpsertBatch() throws Exception {
        String user = TestIdentities.unique("bench");
        key = TestIdentities.userWithKey(user);
        ingest(user + "/warmup-complete", true, WARMUP_REQUESTS);
        ingest(user + "/warmup-legacy", false, WARMUP_REQUESTS);
        // -Dbench.rollup=compare: every round also runs without V22's calls/stats rollup triggers, its cost on writes.
        boolean compareRollup = "compare".equals(System.getProperty("bench.rollup"));
        double[] seconds = new double[4];
        for (int round = 0; round < ROUNDS; round++) {
            for (int triggers = 0; triggers < (compareRollup ? 2 : 1); triggers++) {
                boolean withRollup = (round + triggers) % 2 == 0 || !compareRollup;
                rollupTriggers(withRollup);
                // Alternating sides, each in a fresh project, so both see the same table size and the same JIT.
                for (int side = 0; side < 2; side++) {
                    boolean complete = (round + side) % 2 == 0;
                    seconds[(withRollup ? 0 : 2) + (complete ? 0 : 1)] += ingest(user + "/r" + round + (withRollup ? "" : "-norollup")
                            + (complete ? "-complete" : "-legacy"), complete, REQUESTS);
                }
            }
        }
        rollupTriggers(true);
        long calls = (long) ROUNDS * REQUESTS * CALLS_PER_REQUEST;
        double completePerSecond = calls / seconds[0];
        double legacyPerSecond = calls / seconds[1];
        System.out.printf("BENCH calls/complete: %.0f calls/s (%d calls in requests of %d, %d clients)%n",
                completePerSecond, calls, CALLS_PER_REQUEST, CLIENTS);
        System.out.printf("BENCH call/upsert_batch (baseline): %.0f calls/s (the same calls, %d start+end items a request)%n",
                legacyPerSecond, 2 * CALLS_PER_REQUEST);
        System.out.printf("BENCH ratio calls/complete / upsert_batch: %.2f%n", completePerSecond / legacyPerSecond);
        if (compareRollup) {
            System.out.printf("BENCH without the calls/stats rollup triggers (V22), same rounds: calls/complete %.0f calls/s,"
                    + " upsert_batch %.0f calls/s; with them / without: calls/complete %.2f, upsert_batch %.2f%n",
                    calls / seconds[2], calls / seconds[3], seconds[2] / seconds[0], seconds[3] / seconds[1]);
        }
    }

    /** Turns V22's triggers that keep the calls/stats rollup on or off (between rounds, as the table's owner). */
    private static void rollupTriggers(boolean on) throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement()) {
            for (String trigger : List.of("call_stats_after_insert", "call_stats_after_update", "call_stats_after_delete")) {
                statement.execute("ALTER TABLE tracing.calls " + (on ? "ENABLE" : "DISABLE") + " TRIGGER " + trigger);
            }
        }
    }

    /** Sends {@code requests} bodies of {@link #CALLS_PER_REQUEST} calls from {@link #CLIENTS} clients; the seconds taken. */
    private double ingest(String project, boolean complete, int requests) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int r = 0; r < requests; r++) {
            bodies.add(complete ? completeBody(project, r) : upsertBody(project, r));
        }
        String path = complete ? "v2/" + project + "/calls/complete" : "call/upsert_batch";
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long began = System.nanoTime();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                running.add(clients.submit(() -> {
                    for (int r = next.getAndIncrement(); r < bodies.size(); r = next.getAndIncrement()) {
                        send(path, bodies.get(r));
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
        } finally {
            clients.shutdown();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        String stats = send("calls/query_stats", "{\"project_id\": \"" + project + "\"}");
        if (!stats.replace(" ", "").contains("\"count\":" + (long) requests * CALLS_PER_REQUEST + ",")) {
            throw new IllegalStateException(project + " holds other than the calls sent: " + stats);
        }
        return seconds;
    }

    private String send(String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** The start fields of a call (~1 KB of inputs), as both APIs carry them. */
    private static String startFields(String project, String id, int i) {
        return ("\"project_id\": \"%s\", \"id\": \"%s\", \"trace_id\": \"%s\", \"op_name\": \"bench_op\", \"started_at\":"
                + " \"2025-01-01T12:00:00Z\", \"attributes\": {\"weave\": {\"source\": \"js-sdk\"}},"
                + " \"inputs\": {\"prompt\": \"%s %s\", \"n\": %d}").formatted(project, id, id, NOISE, UUID.randomUUID(), i);
    }

    /** The end fields of a call (~1 KB of output). */
    private static String endFields(String project, String id) {
        return ("\"project_id\": \"%s\", \"id\": \"%s\", \"ended_at\": \"2025-01-01T12:00:01Z\", \"output\": {\"answer\":"
                + " \"%s %s\"}, \"summary\": {\"usage\": {\"m\": {\"requests\": 1, \"total_tokens\": 9}}}")
                .formatted(project, id, NOISE, UUID.randomUUID());
    }

    private static String completeBody(String project, int request) {
        StringBuilder batch = new StringBuilder("{\"batch\": [");
        for (int i = 0; i < CALLS_PER_REQUEST; i++) {
            String id = request + "-" + i;
            batch.append(i == 0 ? "" : ", ").append('{').append(startFields(project, id, i)).append(", ")
                    .append(endFields(project, id).replaceFirst("\"project_id\": \"[^\"]*\", \"id\": \"[^\"]*\", ", ""))
                    .append('}');
        }
        return batch.append("]}").toString();
    }

    private static String upsertBody(String project, int request) {
        StringBuilder batch = new StringBuilder("{\"batch\": [");
        for (int i = 0; i < CALLS_PER_REQUEST; i++) {
            String id = request + "-" + i;
            batch.append(i == 0 ? "" : ", ")
                    .append("{\"mode\": \"start\", \"req\": {\"start\": {").append(startFields(project, id, i)).append("}}}, ")
                    .append("{\"mode\": \"end\", \"req\": {\"end\": {").append(endFields(project, id)).append("}}}");
        }
        return batch.append("]}").toString();
    }
}
