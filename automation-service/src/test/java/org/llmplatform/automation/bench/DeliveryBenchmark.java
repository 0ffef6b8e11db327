package org.llmplatform.automation.bench;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.automation.Teams;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * Event published on Kafka → signed webhook received by a local receiver, through the built service in its
 * own JVM against the real PostgreSQL and Kafka of the test resources. The baseline is the receiver itself:
 * the same bodies POSTed straight to it from this JVM at the same rate and concurrency, the floor of the
 * latency and the ceiling of the throughput any sender reaches on this machine. The fault run restarts the
 * service halfway and checks the delivery ledger against what the receiver saw. Run with {@code bench/run.sh}.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class DeliveryBenchmark {

    private static final Path APPLICATION = Path.of(System.getProperty("bench.app", "target/quarkus-app/quarkus-run.jar"));
    private static final int RATE = Integer.getInteger("bench.rate", 200);
    private static final int WARMUP_EVENTS = Integer.getInteger("bench.warmup", 3000);
    private static final int PACED_EVENTS = Integer.getInteger("bench.paced", 2000);
    /** Paced events before the measured ones: small polls and single deliveries take other code paths than a burst. */
    private static final int PACED_WARMUP_EVENTS = Integer.getInteger("bench.paced-warmup", 6000);
    private static final int BURST_EVENTS = Integer.getInteger("bench.burst", 10000);
    private static final int FAULT_EVENTS = Integer.getInteger("bench.fault", 2000);
    private static final int DIRECT_CONCURRENCY = 64;
    /** The most any one phase (publishing, then waiting for every receipt) may take before the run fails. */
    private static final Duration PHASE_DEADLINE = Duration.ofMinutes(Integer.getInteger("bench.phase-minutes", 4));

    private final Vertx vertx = Vertx.vertx();
    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> receivedAt = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();
    private volatile double failureRate;

    @Test
    void measure() throws Exception {
        assertTrue(Files.isRegularFile(APPLICATION), APPLICATION.toAbsolutePath() + " is missing: bench/run.sh packages the application first");
        HttpServer receiver = receiver();
        String hook = "http://127.0.0.1:" + receiver.actualPort() + "/hook";
        try (ServiceProcess service = ServiceProcess.start(APPLICATION, serviceConfig(), new File("target/bench-service.log"))) {
            RestAssured.baseURI = "http://127.0.0.1";
            RestAssured.port = service.port();
            String team = automationFor(hook);
            Consumer<ArtifactEvent> kafka = ArtifactEventsTopic::publishAsync;
            DirectPosts direct = new DirectPosts(receiver.actualPort());

            run(WARMUP_EVENTS, 0, id -> kafka.accept(event(team, id)));
            run(WARMUP_EVENTS / 3, 0, direct::post);
            run(PACED_WARMUP_EVENTS, RATE, id -> kafka.accept(event(team, id)));

            List<Long> ours = run(PACED_EVENTS, RATE, id -> kafka.accept(event(team, id)));
            List<String> paced = List.copyOf(sentAt.keySet());
            List<Long> floor = run(PACED_EVENTS, RATE, direct::post);
            report("paced, %d events at %d/s, publish → webhook received: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
                    + " (target p99 ≤ 100 ms)", PACED_EVENTS, RATE, percentile(ours, 50), percentile(ours, 99), percentile(ours, 100));
            report("  baseline, the same bodies POSTed straight to the receiver: p50 %.1f ms, p99 %.1f ms; ratio p99 %.1f×",
                    percentile(floor, 50), percentile(floor, 99), percentile(ours, 99) / percentile(floor, 99));
            reportLatencyStages(paced);

            double throughput = saturate(BURST_EVENTS, id -> kafka.accept(event(team, id)));
            List<String> burst = List.copyOf(sentAt.keySet());
            double ceiling = saturate(BURST_EVENTS, direct::post);
            report("saturation, %d events published at once: %.0f deliveries/s (target ≥ 1,000/s on 2 cores)", BURST_EVENTS, throughput);
            report("  baseline, %d POSTs straight to the receiver, %d at a time: %.0f/s; ratio %.2f", BURST_EVENTS,
                    DIRECT_CONCURRENCY, ceiling, throughput / ceiling);
            reportStages(burst);

            faultRun(service, team);
            direct.close();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    /**
     * 30 % of requests fail at random and the service is restarted (SIGTERM, new JVM) halfway through the
     * publishing. Every event must be delivered; a second 2xx for one event is a failure unless the ledger
     * shows the first one was never recorded (the attempt was cut off by the restart).
     */
    private void faultRun(ServiceProcess service, String team) throws Exception {
        reset();
        failureRate = 0.3;
        Thread publisher = new Thread(() -> publish(FAULT_EVENTS, RATE, id -> ArtifactEventsTopic.publishAsync(event(team, id))));
        publisher.start();
        await().atMost(PHASE_DEADLINE).until(() -> sentAt.size() >= FAULT_EVENTS / 2);
        Duration away = service.restart();
        publisher.join(PHASE_DEADLINE.toMillis());
        assertTrue(!publisher.isAlive(), "publishing the fault run's events did not end within " + PHASE_DEADLINE);
        awaitAll();
        Ledger ledger = Ledger.settled(List.copyOf(sentAt.keySet()), Duration.ofMinutes(2));

        int delivered = 0;
        int unrecorded = 0;
        int resentAfterRecorded = 0;
        int duplicates = 0;
        for (String id : sentAt.keySet()) {
            int received = successes.getOrDefault(id, new AtomicInteger()).get();
            Ledger.Entry entry = ledger.entries().get(id);
            if (received > 0 && entry != null && "SUCCEEDED".equals(entry.status())) {
                delivered++;
            }
            if (received > 1) {
                duplicates++;
            }
            long recorded = entry == null ? 0 : entry.recordedSuccesses();
            unrecorded += Math.max(0, received - recorded);
            resentAfterRecorded += Math.max(0, recorded - 1);
        }
        boolean pass = delivered == FAULT_EVENTS && resentAfterRecorded == 0;
        report("fault run, %d events at %d/s, 30%% of requests fail, service restarted halfway (away %.1f s):", FAULT_EVENTS, RATE,
                away.toMillis() / 1000.0);
        report("  delivered %d of %d (receiver answered 2xx and the ledger says SUCCEEDED); %d attempts in the ledger, %d failed",
                delivered, FAULT_EVENTS, ledger.attempts(), ledger.failedAttempts());
        report("  events answered 2xx more than once: %d (2xx answers the ledger never recorded, cut off by the restart: %d;"
                + " sent again after a recorded 2xx: %d)", duplicates, unrecorded, resentAfterRecorded);
        report("  verdict: %s", pass ? "PASS" : "FAIL");
        assertTrue(pass, "the fault run failed");
    }

    private String automationFor(String hook) {
        String admin = TestIdentities.unique("bench");
        String key = TestIdentities.userWithKey(admin);
        String team = TestIdentities.unique("benchteam");
        Teams.withAdmin(team, admin);
        Api.putSecret(key, team, "SIGNING", "bench-signing-secret");
        String webhook = Api.createWebhook(key, team, "bench", hook, null, "SIGNING");
        Api.createAutomation(key, Api.automation("bench", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null, webhook,
                Map.of("id", "${event_author}", "version", "${artifact_version_string}")));
        return team;
    }

    private static Map<String, String> serviceConfig() {
        PlatformTestResources.Engines engines = PlatformTestResources.engines();
        Map<String, String> config = new HashMap<>(engines.postgres().quarkusConfig());
        config.put("kafka.bootstrap.servers", engines.kafkaBootstrapServers());
        config.put("platform.auth.bootstrap-admin-key", PlatformTestResources.ADMIN_KEY);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        config.put("automation.secrets.active-key-id", "bench");
        config.put("automation.secrets.keys.bench", Base64.getEncoder().encodeToString(key));
        config.put("automation.delivery.allow-http", "true");
        config.put("automation.delivery.allowed-networks", "127.0.0.1/32");
        // bench/run.sh passes the retry schedule and log levels on.
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("automation.") || name.startsWith("quarkus.log")) {
                config.put(name, System.getProperty(name));
            }
        }
        return config;
    }

    private static ArtifactEvent event(String team, String id) {
        return new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, id, ArtifactEventType.LINK_ARTIFACT, team, "llm",
                "model-" + Math.floorMod(id.hashCode(), 8), "v1", List.of("latest"), List.of(), id, Map.of(), Instant.now());
    }

    /** Sends {@code count} ids (paced when {@code perSecond} > 0), waits for all, returns the latencies sorted. */
    private List<Long> run(int count, int perSecond, Consumer<String> send) {
        reset();
        publish(count, perSecond, send);
        awaitAll();
        List<Long> latencies = new ArrayList<>();
        sentAt.forEach((id, sent) -> latencies.add(receivedAt.get(id) - sent));
        Collections.sort(latencies);
        return latencies;
    }

    /** Sends {@code count} ids at once; returns deliveries per second from the first send to the last receipt. */
    private double saturate(int count, Consumer<String> send) {
        reset();
        long start = System.nanoTime();
        publish(count, 0, send);
        awaitAll();
        return count / ((Collections.max(receivedAt.values()) - start) / 1e9);
    }

    private void publish(int count, int perSecond, Consumer<String> send) {
        long interval = perSecond == 0 ? 0 : 1_000_000_000L / perSecond;
        long next = System.nanoTime();
        long deadline = next + PHASE_DEADLINE.toNanos();
        for (int i = 0; i < count; i++) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("publishing stalled: " + i + " of " + count + " sent within " + PHASE_DEADLINE);
            }
            String id = UUID.randomUUID().toString();
            sentAt.put(id, System.nanoTime());
            send.accept(id);
            if (interval > 0) {
                next += interval;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }
    }

    /** Where the time went in the saturation run: how fast the consumer stored events, and the dispatcher sent them. */
    private static void reportStages(List<String> eventIds) throws SQLException {
        try (Connection connection = connect();
             PreparedStatement statement = connection.prepareStatement("""
                     SELECT count(*) AS deliveries,
                            extract(epoch FROM max(e.received_at) - min(e.received_at)) AS storing,
                            extract(epoch FROM max(d.updated_at) - min(d.created_at)) AS sending
                     FROM automation.deliveries d JOIN automation.events e ON e.event_id = d.event_id
                     WHERE e.event_id = ANY(?)""")) {
            statement.setArray(1, connection.createArrayOf("text", eventIds.toArray()));
            try (ResultSet stages = statement.executeQuery()) {
                stages.next();
                long deliveries = stages.getLong("deliveries");
                report("  stages: the consumer stored %.0f events/s; the dispatcher finished %.0f deliveries/s",
                        deliveries / stages.getDouble("storing"), deliveries / stages.getDouble("sending"));
            }
        }
    }

    /** Where the latency of the paced run went, from the service's own timestamps (p50 / p99 of each stage). */
    private static void reportLatencyStages(List<String> eventIds) throws SQLException {
        try (Connection connection = connect();
             PreparedStatement statement = connection.prepareStatement("""
                     SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM e.received_at - e.occurred_at)) AS consumed,
                            percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM a.started_at - d.created_at)) AS queued,
                            percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY a.duration_ms / 1000.0) AS sent
                     FROM automation.events e
                     JOIN automation.deliveries d ON d.event_id = e.event_id
                     JOIN automation.attempts a ON a.delivery_id = d.id AND a.attempt_number = 1
                     WHERE e.event_id = ANY(?)""")) {
            statement.setArray(1, connection.createArrayOf("text", eventIds.toArray()));
            try (ResultSet stages = statement.executeQuery()) {
                stages.next();
                report("  stages (p50 / p99 ms): published → stored by the consumer %s; stored → attempt started %s; POST %s",
                        millis(stages.getArray("consumed")), millis(stages.getArray("queued")), millis(stages.getArray("sent")));
            }
        }
    }

    private static String millis(Array seconds) throws SQLException {
        Object[] values = (Object[]) seconds.getArray();
        return String.format("%.1f / %.1f", ((Number) values[0]).doubleValue() * 1000, ((Number) values[1]).doubleValue() * 1000);
    }

    private void awaitAll() {
        await("every sent id received within " + PHASE_DEADLINE + " (see the missing count in the failure)")
                .atMost(PHASE_DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> sentAt.size() - receivedAt.size(), missing -> missing == 0 && receivedAt.keySet().containsAll(sentAt.keySet()));
    }

    private void reset() {
        sentAt.clear();
        receivedAt.clear();
        successes.clear();
    }

    /** The webhook receiver: one Vert.x event loop, so that it costs the machine as little as it can. */
    private HttpServer receiver() throws Exception {
        return vertx.createHttpServer(new HttpServerOptions().setAcceptBacklog(1024))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    long now = System.nanoTime();
                    boolean fail = failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
                    if (!fail) {
                        String id = new JsonObject(body).getString("id");
                        receivedAt.putIfAbsent(id, now);
                        successes.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
                    }
                    request.response().setStatusCode(fail ? 500 : 204).end();
                }))
                .listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get();
    }

    private static Connection connect() throws SQLException {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
    }

    private static double percentile(List<Long> sortedNanos, int percent) {
        int index = Math.min(sortedNanos.size() - 1, (int) (sortedNanos.size() * (percent / 100.0)));
        return sortedNanos.get(index) / 1e6;
    }

    private static void report(String format, Object... values) {
        System.out.println("BENCH " + String.format(format, values));
    }

    /**
     * POSTs the body a delivery would carry straight to the receiver with the JDK's HTTP client (keep-alive
     * connections, two threads), at most {@value #DIRECT_CONCURRENCY} at a time. Every request has a timeout
     * and a free slot is waited for only so long, so a lost request fails the run instead of stalling it.
     */
    private static final class DirectPosts implements AutoCloseable {
        private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
        private static final int TRIES = 3;

        private final ExecutorService threads = Executors.newFixedThreadPool(2);
        private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(REQUEST_TIMEOUT).executor(threads).build();
        private final Semaphore room = new Semaphore(DIRECT_CONCURRENCY);
        private final URI hook;

        DirectPosts(int port) {
            this.hook = URI.create("http://127.0.0.1:" + port + "/hook");
        }

        void post(String id) {
            try {
                if (!room.tryAcquire(TRIES * REQUEST_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("direct POSTs stalled: no slot of " + DIRECT_CONCURRENCY + " freed");
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
            send(id, TRIES);
        }

        /** A request that fails or gets no answer in time is sent again; the slot is freed whatever happens. */
        private void send(String id, int tries) {
            HttpRequest request = HttpRequest.newBuilder(hook).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + id + "\",\"version\":\"v1\"}")).build();
            client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
                if (failure != null && tries > 1) {
                    send(id, tries - 1);
                } else {
                    room.release();
                }
            });
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }

    /** What the service's tables say about a set of events: each delivery's status and recorded 2xx attempts. */
    private record Ledger(Map<String, Entry> entries, long attempts, long failedAttempts) {

        record Entry(String status, long recordedSuccesses) {
        }

        /** The ledger once no delivery of the events is pending or in flight any more (or after {@code within}). */
        static Ledger settled(List<String> eventIds, Duration within) throws Exception {
            long deadline = System.nanoTime() + within.toNanos();
            Ledger ledger = read(eventIds);
            while (ledger.entries().values().stream().anyMatch(entry -> !"SUCCEEDED".equals(entry.status()))
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
                ledger = read(eventIds);
            }
            return ledger;
        }

        static Ledger read(List<String> eventIds) throws SQLException {
            try (Connection connection = connect();
                 PreparedStatement statement = connection.prepareStatement("""
                         SELECT sent.event_id, d.status,
                                count(a.id) FILTER (WHERE a.succeeded) AS recorded_successes,
                                count(a.id) AS attempts,
                                count(a.id) FILTER (WHERE NOT a.succeeded) AS failed
                         FROM unnest(?::text[]) AS sent(event_id)
                         LEFT JOIN automation.deliveries d ON d.event_id = sent.event_id
                         LEFT JOIN automation.attempts a ON a.delivery_id = d.id
                         GROUP BY sent.event_id, d.status""")) {
                Array ids = connection.createArrayOf("text", eventIds.toArray());
                statement.setArray(1, ids);
                Map<String, Entry> entries = new HashMap<>();
                long attempts = 0;
                long failed = 0;
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        entries.put(rows.getString("event_id"), new Entry(rows.getString("status"), rows.getLong("recorded_successes")));
                        attempts += rows.getLong("attempts");
                        failed += rows.getLong("failed");
                    }
                }
                return new Ledger(entries, attempts, failed);
            }
        }
    }
}
