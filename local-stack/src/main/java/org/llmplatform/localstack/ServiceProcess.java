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
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** One Quarkus service, started from its packaged {@code quarkus-run.jar}. */
final class ServiceProcess {

    /**
     * Small heaps and one GC thread: four services and Kafka share a laptop. Metaspace starts at the size a started
     * service needs: from the JVM's default each service ran three or four full collections (65 to 200 ms each)
     * while loading its classes, the first seconds of a fresh platform.
     */
    private static final List<String> COMMON_JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC", "-Xss512k", "-XX:MetaspaceSize=96m", "-XX:MaxMetaspaceSize=160m");

    /**
     * Services that mostly wait on PostgreSQL, Kafka or the network: the quick compiler alone (C1) keeps
     * their start-up, memory and CPU small, and their requests do not need more.
     */
    private static final List<String> LIGHT_JVM_OPTIONS = List.of(
            "-Xms32m", "-Xmx192m", "-XX:ReservedCodeCacheSize=64m", "-XX:TieredStopAtLevel=1");

    /**
     * The services users time. Every chat completion crosses the gateway, and its embedded engine's forward pass
     * is CPU-bound: with C1 only, the engine behind the API ran at 0.11-0.15x llama2.c's run.c. Every traced call,
     * file and blob crosses the tracing-service, whose requests hash their bytes (SHA-256, which only C2 runs on
     * the CPU's SHA instructions: about 12x C1's speed) and go through the AWS SDK: with C1 only, its warm small
     * puts ran at 0.74x of a bare S3 PUT, with C2 at 1.0x. They get the optimising compiler (C2), a code cache
     * C2 has room in, and a young generation big enough that a burst of requests (tens of kB each) does not
     * collect every few hundred requests. C2 costs about 90 MB more RSS each and a minute of compiling at first.
     * The young generation's survivor spaces hold what is in flight when it is collected: the SDKs' call batches are
     * megabytes each, and with 6 MB survivors (-Xmn64m) every collection promoted them, so the old generation was
     * collected every second under ingest (tracing-service/bench/scale.sh: 3.8 s of pauses for 300,000 calls, 2.0 s
     * with these, and 6 % more calls a second).
     */
    private static final List<String> HOT_PATH_JVM_OPTIONS = List.of(
            "-Xms96m", "-Xmx256m", "-Xmn96m", "-XX:SurvivorRatio=2", "-XX:ReservedCodeCacheSize=96m");

    private static final Set<PlatformService> HOT_PATH_SERVICES = EnumSet.of(PlatformService.INFERENCE, PlatformService.TRACING);

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

    /** {@code name}: the replica's, which names its log too. */
    static ChildProcess start(PlatformService service, String name, Path home, Map<String, String> environment,
            List<String> systemProperties, Path logs) {
        Path jar = jar(service, home);
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(jvmOptions(service));
        command.addAll(systemProperties);
        command.add("-jar");
        command.add(jar.toString());
        return ChildProcess.start(name, command, environment, logs.resolve(name + ".log"));
    }

    /**
     * Prints the JVM options the run command gives the service of module {@code args[0]}, one per line, so that a
     * benchmark starts that service exactly as users run it.
     */
    public static void main(String[] args) {
        PlatformService service = Arrays.stream(PlatformService.values())
                .filter(candidate -> args.length == 1 && candidate.module().equals(args[0])).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("usage: ServiceProcess <module of a service>"));
        jvmOptions(service).forEach(System.out::println);
    }

    static List<String> jvmOptions(PlatformService service) {
        List<String> options = new ArrayList<>(COMMON_JVM_OPTIONS);
        options.addAll(HOT_PATH_SERVICES.contains(service) ? HOT_PATH_JVM_OPTIONS : LIGHT_JVM_OPTIONS);
        return options;
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
