package org.llmplatform.tracing.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
            "-XX:MaxMetaspaceSize=160m", "-Xms96m", "-Xmx256m", "-Xmn96m", "-XX:SurvivorRatio=2",
            "-XX:ReservedCodeCacheSize=96m");

    private static PackagedService service;

    /** The service's root, ending in {@code /}: {@code base + "calls/stream_query"}. */
    static URI base;

    private static int port;
    private static List<String> jvmOptions;

    @BeforeAll
    static void startService() {
        int configuredPort = Integer.getInteger("bench.port", 0);
        port = configuredPort == 0 ? PackagedService.freePort() : configuredPort;
        jvmOptions = new ArrayList<>(PLATFORM_JVM_OPTIONS);
        // -Dbench.serviceJvmOptions="-Xlog:gc:/tmp/gc.log": to see where the service's time goes (bench/scale.sh)
        jvmOptions.addAll(List.of(System.getProperty("bench.serviceJvmOptions", "").split(" +")).stream()
                .filter(option -> !option.isEmpty()).toList());
        service = start();
        base = service.base().resolve("/");
    }

    /** Stops the service and starts it again on the same port and database: what it holds in memory is read anew. */
    static void restartService() {
        service.stop();
        service = start();
    }

    private static PackagedService start() {
        return PackagedService.start("tracing-service", port, jvmOptions, Map.of("quarkus.log.level", "WARN"), Map.of());
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

    /** Drops V16's trigram indexes where a benchmark made them again ({@link #searchIndexes}). */
    static final String DROP_SEARCH_INDEXES = "DROP INDEX IF EXISTS tracing.calls_inputs_text,"
            + " tracing.calls_output_text;\n";

    /**
     * The trigram indexes a search had on every call's inputs and output text, as migration V16 created them (V28
     * dropped them): to measure what they cost ingest.
     */
    static String searchIndexes() {
        String sql;
        try (InputStream in = PackagedServiceBenchmark.class.getClassLoader().getResourceAsStream(
                "db/migration/V16__call_search_and_id_indexes.sql")) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher index = Pattern.compile("CREATE INDEX calls_\\w*_text .*?;", Pattern.DOTALL).matcher(sql);
        StringBuilder statements = new StringBuilder();
        while (index.find()) {
            statements.append(index.group()).append('\n');
        }
        if (statements.isEmpty()) {
            throw new IllegalStateException("V16 creates no trigram index");
        }
        return statements.toString();
    }

    /** CPU seconds spent so far by the service's JVM, this JVM (the clients and Kafka) and PostgreSQL's processes. */
    record CpuSeconds(double service, double clients, double postgres) {

        static CpuSeconds now() {
            ProcessHandle postmaster = postmaster();
            double postgres = ticks(postmaster.pid(), true)
                    + postmaster.children().mapToDouble(process -> ticks(process.pid(), true)).sum();
            return new CpuSeconds(ticks(PackagedServiceBenchmark.service.pid(), false),
                    ticks(ProcessHandle.current().pid(), false), postgres);
        }

        /** PostgreSQL's postmaster: the parent of a backend (embedded PostgreSQL runs apart from this JVM's tree). */
        private static ProcessHandle postmaster() {
            try (Connection db = PackagedServiceBenchmark.database(); Statement statement = db.createStatement();
                    ResultSet backend = statement.executeQuery("SELECT pg_backend_pid()")) {
                backend.next();
                return ProcessHandle.of(backend.getLong(1)).flatMap(ProcessHandle::parent).orElseThrow();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        CpuSeconds since(CpuSeconds before) {
            return new CpuSeconds(service - before.service, clients - before.clients, postgres - before.postgres);
        }

        /**
         * A process's user and system time from {@code /proc/<pid>/stat}, in seconds (100 ticks a second), with its
         * reaped children's when {@code children} (PostgreSQL's postmaster keeps the time of the backends that ended).
         */
        private static double ticks(long pid, boolean children) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                if (children) {
                    ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
                }
                return ticks / 100.0;
            } catch (IOException e) {
                return 0; // a process that ended since it was listed
            }
        }
    }

    /** A connection to the service's database, for loading data and for the JDBC baselines. */
    static Connection database() throws SQLException {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
    }
}
