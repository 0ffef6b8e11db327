package org.llmplatform.tracing.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PackagedService;
import org.llmplatform.testing.PlatformTestResources;

/**
 * A benchmark of the packaged tracing-service: this JVM runs the embedded PostgreSQL and Kafka and the client, the
 * service runs from {@code target/quarkus-app/quarkus-run.jar} in a JVM of its own (as {@code ./platform} runs it),
 * so what is measured is the shipped service over real HTTP, not one sharing the client's JIT, heap and threads.
 * Run through the module's {@code bench/*.sh}, which build the jar first; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
abstract class PackagedServiceBenchmark {

    /**
     * {@code ./platform}'s options for the tracing-service (local-stack's {@code ServiceProcess}: the common options
     * and the hot path's, C2 included), so the figures are those of the service as users run it.
     */
    private static final List<String> PLATFORM_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xss512k",
            "-XX:MaxMetaspaceSize=160m", "-Xms96m", "-Xmx256m", "-Xmn64m", "-XX:ReservedCodeCacheSize=96m");

    private static PackagedService service;

    /** The service's root, ending in {@code /}: {@code base + "calls/stream_query"}. */
    static URI base;

    @BeforeAll
    static void startService() {
        int port = Integer.getInteger("bench.port", 0);
        service = PackagedService.start("tracing-service", port == 0 ? PackagedService.freePort() : port,
                PLATFORM_JVM_OPTIONS, Map.of("quarkus.log.level", "WARN"), Map.of());
        base = service.base().resolve("/");
    }

    @AfterAll
    static void stopService() {
        if (service != null) {
            service.stop();
        }
    }

    /** The service process's resident memory now, in bytes (Linux {@code /proc}), or -1 where it cannot be read. */
    static long serviceRss() {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(service.pid()), "status")).stream()
                    .filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", "")) * 1024).findFirst().orElse(-1);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** A connection to the service's database, for loading data and for the JDBC baselines. */
    static Connection database() throws SQLException {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
    }
}
