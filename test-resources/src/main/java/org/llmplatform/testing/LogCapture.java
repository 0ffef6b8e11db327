package org.llmplatform.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records every log line of the application under test (which shares the test's JVM), with its
 * parameters and exception, so that a test can prove a secret never reached the log.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<String> lines = new ArrayList<>();

    private LogCapture() {
    }

    public static LogCapture start() {
        LogCapture capture = new LogCapture();
        Logger.getLogger("").addHandler(capture);
        return capture;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        lines.add(record.getMessage()
                + (record.getParameters() == null ? "" : " " + Arrays.toString(record.getParameters()))
                + (record.getThrown() == null ? "" : " " + record.getThrown()));
    }

    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The captured lines that contain {@code text}; empty when none does. */
    public List<String> linesContaining(String text) {
        return lines().stream().filter(line -> line.contains(text)).toList();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
