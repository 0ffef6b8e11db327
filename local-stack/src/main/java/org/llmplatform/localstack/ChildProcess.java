package org.llmplatform.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process the stack started, with its output appended to a log file; stopped politely, then firmly.
 * It keeps its command line, so the supervisor can start it again after a crash.
 */
final class ChildProcess {

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private volatile Process process;

    private ChildProcess(String name, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path log) {
        ChildProcess child = new ChildProcess(name, command, environment, log);
        child.launch();
        return child;
    }

    /** Runs a command to completion, failing with its output when it exits non-zero. */
    static void run(String name, List<String> command, Path log) throws InterruptedException {
        ChildProcess child = start(name, command, Map.of(), log);
        if (child.process.waitFor() != 0) {
            throw new IllegalStateException(name + " failed:\n" + child.logTail());
        }
    }

    /** Starts the same command again; only for a process that has exited. */
    void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        launch();
    }

    private void launch() {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** The exit code of a process that has ended. */
    int exitValue() {
        return process.exitValue();
    }

    /** SIGTERM, then SIGKILL after the grace period; children of the process go with it. */
    void stop(long graceSeconds) {
        Process current = process;
        if (!current.isAlive()) {
            return;
        }
        List<ProcessHandle> descendants = current.descendants().toList();
        current.destroy();
        try {
            if (!current.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                current.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            current.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no readable log at " + log + ")";
        }
    }
}
