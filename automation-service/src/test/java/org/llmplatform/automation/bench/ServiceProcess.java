package org.llmplatform.automation.bench;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The service as production runs it: the built application ({@code target/quarkus-app}) in its own JVM,
 * configured by system properties. {@link #restart()} stops it the way an orchestrator does (SIGTERM, then
 * waits for the exit) and starts it again on the same port.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(120);
    private static final Duration SHUTDOWN = Duration.ofSeconds(60);

    private final Path jar;
    private final Map<String, String> config;
    private final File log;
    private final int port;
    private Process process;

    private ServiceProcess(Path jar, Map<String, String> config, File log, int port) {
        this.jar = jar;
        this.config = config;
        this.log = log;
        this.port = port;
    }

    static ServiceProcess start(Path jar, Map<String, String> config, File log) throws Exception {
        ServiceProcess service = new ServiceProcess(jar, new TreeMap<>(config), log, freePort());
        service.launch();
        return service;
    }

    int port() {
        return port;
    }

    /** Stops the service gracefully and starts it again; returns how long it was away. */
    Duration restart() throws Exception {
        long stopping = System.nanoTime();
        stop();
        launch();
        return Duration.ofNanos(System.nanoTime() - stopping);
    }

    private void launch() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx768m");
        // e.g. -Dbench.jvm=-XX:StartFlightRecording=filename=target/service.jfr to profile the service
        for (String option : System.getProperty("bench.jvm", "").split(" ")) {
            if (!option.isBlank()) {
                command.add(option);
            }
        }
        config.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-Dquarkus.http.port=" + port);
        command.add("-jar");
        command.add(jar.toString());
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!ready()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + " while starting; see " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the service was not ready within " + STARTUP + "; see " + log);
            }
            Thread.sleep(200);
        }
    }

    private boolean ready() {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/q/health/ready").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2000);
            try {
                return connection.getResponseCode() == 200;
            } finally {
                connection.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    private void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(SHUTDOWN.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("the service did not stop within " + SHUTDOWN + "; see " + log);
        }
    }

    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            stop();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
