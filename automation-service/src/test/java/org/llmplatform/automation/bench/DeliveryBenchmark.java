package org.llmplatform.automation.bench;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
 * Event published on Kafka → webhook received on a local receiver, through the real service, PostgreSQL and
 * Kafka of the test resources. Run with {@code bench/run.sh}; not part of the test suite.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@EnabledIfSystemProperty(named = "bench", matches = "true")
class DeliveryBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RATE = Integer.getInteger("bench.rate", 200);
    private static final int PACED_EVENTS = Integer.getInteger("bench.paced", 2000);
    private static final int BURST_EVENTS = Integer.getInteger("bench.burst", 5000);
    private static final int FAULT_EVENTS = Integer.getInteger("bench.fault", 1000);

    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> receivedAt = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();
    private volatile double failureRate;

    @Test
    void measure() throws Exception {
        HttpServer receiver = receiver();
        try {
            String admin = TestIdentities.unique("bench");
            String key = TestIdentities.userWithKey(admin);
            String team = TestIdentities.unique("benchteam");
            Teams.withAdmin(team, admin);
            Api.putSecret(key, team, "SIGNING", "bench-signing-secret");
            String webhook = Api.createWebhook(key, team, "bench", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
                    null, "SIGNING");
            Api.createAutomation(key, Api.automation("bench", Api.projectScope(team, "llm"), "LINK_ARTIFACT", null, webhook,
                    Map.of("id", "${event_author}", "version", "${artifact_version_string}")));
            publish(team, 200, 0);
            awaitAll(Duration.ofSeconds(60));
            reset();

            publish(team, PACED_EVENTS, RATE);
            awaitAll(Duration.ofSeconds(120));
            List<Long> latencies = new ArrayList<>();
            sentAt.forEach((id, sent) -> latencies.add(receivedAt.get(id) - sent));
            Collections.sort(latencies);
            report("paced %d events at %d/s: p50 %.1f ms, p99 %.1f ms, max %.1f ms", PACED_EVENTS, RATE,
                    millis(latencies.get(latencies.size() / 2)), millis(latencies.get((int) (latencies.size() * 0.99))),
                    millis(latencies.get(latencies.size() - 1)));
            reset();

            long start = System.nanoTime();
            publish(team, BURST_EVENTS, 0);
            awaitAll(Duration.ofSeconds(300));
            long last = Collections.max(receivedAt.values());
            report("saturation: %d events delivered in %.2f s = %.0f deliveries/s", BURST_EVENTS, (last - start) / 1e9,
                    BURST_EVENTS / ((last - start) / 1e9));
            reportStages(team);
            reset();

            failureRate = 0.3;
            publish(team, FAULT_EVENTS, RATE);
            awaitAll(Duration.ofSeconds(300));
            long twice = successes.values().stream().filter(count -> count.get() > 1).count();
            report("fault run (30%% of requests fail): %d of %d events delivered with a 2xx, %d answered 2xx more than once",
                    receivedAt.size(), FAULT_EVENTS, twice);
        } finally {
            receiver.stop(0);
        }
    }

    /** Where the time went: how fast the consumer stored events and queued deliveries, and how fast they were sent. */
    private static void reportStages(String team) throws SQLException {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = connection.createStatement();
             ResultSet stages = statement.executeQuery("""
                     SELECT count(*) AS deliveries,
                            extract(epoch FROM max(e.received_at) - min(e.received_at)) AS storing,
                            extract(epoch FROM max(d.updated_at) - min(d.created_at)) AS sending
                     FROM automation.deliveries d JOIN automation.events e ON e.event_id = d.event_id
                     WHERE e.entity = '%s' AND e.received_at > now() - interval '5 minutes'""".formatted(team))) {
            stages.next();
            long deliveries = stages.getLong("deliveries");
            report("  stages since the saturation run began: consumer stored %.0f events/s; dispatcher finished %.0f deliveries/s",
                    deliveries / stages.getDouble("storing"), deliveries / stages.getDouble("sending"));
        }
    }

    private void publish(String team, int count, int perSecond) {
        long interval = perSecond == 0 ? 0 : 1_000_000_000L / perSecond;
        long next = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, id, ArtifactEventType.LINK_ARTIFACT, team, "llm",
                    "model-" + (i % 8), "v" + i, List.of("latest"), List.of(), id, Map.of(), Instant.now());
            sentAt.put(id, System.nanoTime());
            ArtifactEventsTopic.publishAsync(event);
            if (interval > 0) {
                next += interval;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }
    }

    private void awaitAll(Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(100)).until(() -> receivedAt.keySet().containsAll(sentAt.keySet()));
    }

    private void reset() {
        sentAt.clear();
        receivedAt.clear();
        successes.clear();
    }

    private HttpServer receiver() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        server.setExecutor(Executors.newFixedThreadPool(32));
        server.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            long now = System.nanoTime();
            boolean fail = failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
            if (!fail) {
                String id = JSON.readTree(body).get("id").asText();
                receivedAt.putIfAbsent(id, now);
                successes.computeIfAbsent(id, any -> new AtomicInteger()).incrementAndGet();
            }
            exchange.sendResponseHeaders(fail ? 500 : 204, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static void report(String format, Object... values) {
        System.out.println("BENCH " + String.format(format, values));
    }
}
