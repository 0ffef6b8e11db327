package org.llmplatform.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A platform service from its packaged jar ({@code ../<module>/target/quarkus-app/quarkus-run.jar}, relative to the
 * module whose tests or benchmarks run, built before them) in its own JVM, on this JVM's PostgreSQL and Kafka
 * ({@link PlatformTestResources#engines()}) with the bootstrap admin key; its log goes to a file that a failed start
 * prints. The console's tests run the services they relay to this way, and the benchmarks measure the service as it
 * is shipped, from another process.
 */
public final class PackagedService {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx512m");

    private final String module;
    private final Process process;
    private final Path log;
    private final URI base;

    private PackagedService(String module, Process process, Path log, URI base) {
        this.module = module;
        this.process = process;
        this.log = log;
        this.base = base;
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }

    /** Starts {@code module} on a free port with these system properties and environment, and waits until it is ready. */
    public static PackagedService start(String module, Map<String, String> properties, Map<String, String> environment) {
        return start(module, freePort(), properties, environment);
    }

    /**
     * Starts {@code module} on {@code port} (known beforehand when services must be told each other's address) with
     * these system properties and environment, and waits until it is ready.
     */
    public static PackagedService start(String module, int port, Map<String, String> properties,
            Map<String, String> environment) {
        return start(module, port, DEFAULT_JVM_OPTIONS, properties, environment);
    }

    /** Starts {@code module} as {@link #start(String, int, Map, Map)} does, its JVM run with these options. */
    public static PackagedService start(String module, int port, List<String> jvmOptions, Map<String, String> properties,
            Map<String, String> environment) {
        Path jar = Path.of("..", module, "target", "quarkus-app", "quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing: build it first (mvn -pl " + module + " -am package -DskipTests)");
        }
        try {
            PlatformTestResources.Engines engines = PlatformTestResources.engines();
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(jvmOptions);
            command.addAll(List.of("-Dquarkus.http.port=" + port, "-Dkafka.bootstrap.servers=" + engines.kafkaBootstrapServers(),
                    "-Dplatform.auth.bootstrap-admin-key=" + PlatformTestResources.ADMIN_KEY));
            engines.postgres().quarkusConfig().forEach((key, value) -> command.add("-D" + key + "=" + value));
            properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
            Path data = Files.createTempDirectory("packaged-" + module);
            Path log = data.resolve(module + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("PLATFORM_DATA_DIR", data.toString());
            builder.environment().putAll(environment);
            Process process = builder.start();
            // A JVM killed before it stops its services (a benchmark interrupted) must not leave them running.
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, module + "-stop"));
            PackagedService service = new PackagedService(module, process, log, URI.create("http://localhost:" + port));
            service.awaitReady();
            return service;
        } catch (IOException e) {
            throw new IllegalStateException("the " + module + " did not start", e);
        }
    }

    public URI base() {
        return base;
    }

    /** The service's process id, for readings of its resources (its RSS in {@code /proc}). */
    public long pid() {
        return process.pid();
    }

    /** Polls the readiness check until it answers 200, the process dies or the time is up (its log says why). */
    private void awaitReady() throws IOException {
        HttpClient client = TestHttpClients.http1(Duration.ofSeconds(2));
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the " + module + " exited:\n" + Files.readString(log));
            }
            try {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(base.resolve("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("the " + module + " was not ready within " + START_TIMEOUT + ":\n" + Files.readString(log));
    }

    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
