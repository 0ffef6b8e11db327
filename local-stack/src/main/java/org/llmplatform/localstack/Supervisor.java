package org.llmplatform.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Brings back a process of the stack that dies, as {@code restart: unless-stopped} in a compose file or a
 * Kubernetes Deployment would: the others keep serving, and the dead one is started again after a backoff
 * that doubles with each crash in a row (1 s up to 30 s) and resets once it has run for a minute.
 */
final class Supervisor {

    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    private static final Duration STABLE_AFTER = Duration.ofMinutes(1);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final HttpClient http;
    private final List<Watched> watched = new ArrayList<>();

    Supervisor(HttpClient http) {
        this.http = http;
    }

    /** Watches a process; {@code readiness} (if any) is polled after a restart to say when it serves again. */
    void watch(ChildProcess child, Optional<URI> readiness) {
        watched.add(new Watched(child, readiness));
    }

    /** One look at every process: schedules, performs and reports restarts. Call about once a second. */
    void check() {
        long now = System.nanoTime();
        for (Watched process : watched) {
            process.check(now);
        }
    }

    /** The wait before the restart that follows {@code crashesInARow} crashes (1, 2, 4, … 30 s). */
    static Duration backoff(int crashesInARow) {
        long seconds = FIRST_BACKOFF.toSeconds() << Math.min(crashesInARow - 1, 10);
        return seconds >= MAX_BACKOFF.toSeconds() ? MAX_BACKOFF : Duration.ofSeconds(seconds);
    }

    private static void say(String line) {
        System.out.println("[" + LocalTime.now().format(CLOCK) + "] " + line);
    }

    private final class Watched {
        private final ChildProcess child;
        private final Optional<URI> readiness;
        private int crashesInARow;
        private long startedAt = System.nanoTime();
        private long restartAt = -1;
        private long restartedAt = -1;

        Watched(ChildProcess child, Optional<URI> readiness) {
            this.child = child;
            this.readiness = readiness;
        }

        void check(long now) {
            if (child.isAlive()) {
                if (restartedAt >= 0 && isReady()) {
                    say(child.name() + " is serving again (" + millisSince(restartedAt, now) + " ms after its restart)");
                    restartedAt = -1;
                }
                if (crashesInARow > 0 && now - startedAt > STABLE_AFTER.toNanos()) {
                    crashesInARow = 0;
                }
                return;
            }
            if (restartAt < 0) {
                crashesInARow++;
                Duration wait = backoff(crashesInARow);
                restartAt = now + wait.toNanos();
                say(child.name() + " exited unexpectedly (exit code " + child.exitValue() + "); restarting it in " + wait.toSeconds()
                        + " s (crash " + crashesInARow + " in a row; log: " + child.log() + ")");
                return;
            }
            if (now >= restartAt) {
                restartAt = -1;
                startedAt = now;
                restartedAt = now;
                child.restart();
                say("Restarted " + child.name() + " (pid " + child.pid() + ")");
                if (readiness.isEmpty()) {
                    restartedAt = -1;
                }
            }
        }

        private boolean isReady() {
            if (readiness.isEmpty()) {
                return true;
            }
            HttpRequest ready = HttpRequest.newBuilder(readiness.get()).timeout(Duration.ofSeconds(1)).GET().build();
            try {
                return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private static long millisSince(long start, long now) {
            return (now - start) / 1_000_000;
        }
    }
}
