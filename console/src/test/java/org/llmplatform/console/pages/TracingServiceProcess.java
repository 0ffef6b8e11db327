package org.llmplatform.console.pages;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
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
import org.llmplatform.testing.PlatformTestResources;

/**
 * The packaged tracing-service ({@code ../tracing-service/target/quarkus-app/quarkus-run.jar}, which the
 * build makes before this module's tests) in its own JVM, on the test's PostgreSQL and Kafka with the
 * bootstrap admin key, as the console's tracing upstream.
 */
public class TracingServiceProcess implements QuarkusTestResourceLifecycleManager {

    static final Path JAR = Path.of("..", "tracing-service", "target", "quarkus-app", "quarkus-run.jar");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private Process process;
    private Path log;

    @Override
    public Map<String, String> start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: build the tracing-service first (mvn -pl console -am verify)");
        }
        try {
            int port = freePort();
            PlatformTestResources.Engines engines = PlatformTestResources.engines();
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-Dquarkus.http.port=" + port, "-Dkafka.bootstrap.servers=" + engines.kafkaBootstrapServers(),
                    "-Dplatform.auth.bootstrap-admin-key=" + PlatformTestResources.ADMIN_KEY));
            engines.postgres().quarkusConfig().forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
            Path data = Files.createTempDirectory("console-test-tracing");
            log = data.resolve("tracing-service.log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("PLATFORM_DATA_DIR", data.toString());
            process = builder.start();
            URI base = URI.create("http://localhost:" + port);
            awaitHealthy(base);
            return Map.of("console.upstreams.tracing.url", base.toString());
        } catch (IOException e) {
            throw new IllegalStateException("the tracing-service did not start", e);
        }
    }

    /** Polls /health until it answers 200, the process dies or the time is up (its log says why). */
    private void awaitHealthy(URI base) throws IOException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the tracing-service exited:\n" + Files.readString(log));
            }
            try {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(base.resolve("/health")).build(),
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
        throw new IllegalStateException("the tracing-service was not healthy within " + START_TIMEOUT + ":\n" + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(Duration.ofSeconds(20).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
