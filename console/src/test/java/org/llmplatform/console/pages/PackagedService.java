package org.llmplatform.console.pages;

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
import org.llmplatform.testing.PlatformTestResources;

/**
 * One service of the platform from its packaged jar ({@code ../<module>/target/quarkus-app/quarkus-run.jar}, which
 * the build makes before this module's tests) in its own JVM, on the test's PostgreSQL and Kafka with the bootstrap
 * admin key, as an upstream of the console.
 */
final class PackagedService {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

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

    /** Starts the module's jar with these system properties and environment, and waits until it is ready. */
    static PackagedService start(String module, Map<String, String> properties, Map<String, String> environment) {
        Path jar = Path.of("..", module, "target", "quarkus-app", "quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing: build it first (mvn -pl console -am verify)");
        }
        try {
            int port = freePort();
            PlatformTestResources.Engines engines = PlatformTestResources.engines();
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-Dquarkus.http.port=" + port,
                    "-Dkafka.bootstrap.servers=" + engines.kafkaBootstrapServers(),
                    "-Dplatform.auth.bootstrap-admin-key=" + PlatformTestResources.ADMIN_KEY));
            engines.postgres().quarkusConfig().forEach((key, value) -> command.add("-D" + key + "=" + value));
            properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
            Path data = Files.createTempDirectory("console-test-" + module);
            Path log = data.resolve(module + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("PLATFORM_DATA_DIR", data.toString());
            builder.environment().putAll(environment);
            PackagedService service = new PackagedService(module, builder.start(), log, URI.create("http://localhost:" + port));
            service.awaitReady();
            return service;
        } catch (IOException e) {
            throw new IllegalStateException(module + " did not start", e);
        }
    }

    URI base() {
        return base;
    }

    /** Polls the readiness check until it answers 200, the process dies or the time is up (its log says why). */
    private void awaitReady() throws IOException {
        try {
            pollUntilReady();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while " + module + " started", e);
        }
    }

    private void pollUntilReady() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(base.resolve("/q/health/ready")).timeout(Duration.ofSeconds(5)).build();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(module + " exited:\n" + Files.readString(log));
            }
            try {
                if (client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        process.destroyForcibly();
        throw new IllegalStateException(module + " was not ready within " + START_TIMEOUT + ":\n" + Files.readString(log));
    }

    void stop() {
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
