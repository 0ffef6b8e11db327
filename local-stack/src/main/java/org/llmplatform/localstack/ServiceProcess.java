package org.llmplatform.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One Quarkus service, started from its packaged {@code quarkus-run.jar}. */
final class ServiceProcess {

    /** Small heaps and one GC thread: four services and Kafka share a laptop. */
    private static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC", "-Xms32m", "-Xmx192m", "-Xss512k",
            "-XX:ReservedCodeCacheSize=64m", "-XX:MaxMetaspaceSize=160m", "-XX:TieredStopAtLevel=1");

    /** Fails before anything starts when a service has not been built. */
    static void requireBuilt(Path home) {
        for (PlatformService service : PlatformService.values()) {
            Path jar = jar(service, home);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: build first with 'mvn -DskipTests install' (./platform does this)");
            }
        }
    }

    private static Path jar(PlatformService service, Path home) {
        return home.resolve(service.module()).resolve("target/quarkus-app/quarkus-run.jar");
    }

    static ChildProcess start(PlatformService service, Path home, Map<String, String> environment, List<String> systemProperties,
            Path logs) {
        Path jar = jar(service, home);
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(JVM_OPTIONS);
        command.addAll(systemProperties);
        command.add("-jar");
        command.add(jar.toString());
        return ChildProcess.start(service.module(), command, environment, logs.resolve(service.module() + ".log"));
    }

    static void awaitReady(ChildProcess child, URI readiness, HttpClient http, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        HttpRequest ready = HttpRequest.newBuilder(readiness).timeout(Duration.ofSeconds(2)).GET().build();
        while (true) {
            if (!child.isAlive()) {
                throw new IllegalStateException(child.name() + " exited during start-up (log: " + child.log() + "):\n" + child.logTail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // still starting
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(child.name() + " was not ready within " + timeoutSeconds + " s (log: " + child.log() + ")");
            }
            Thread.sleep(200);
        }
    }

    private ServiceProcess() {
    }
}
