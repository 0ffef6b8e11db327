package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SupervisorTest {

    @Test
    void theBackoffDoublesWithEachCrashInARowUpToThirtySeconds() {
        assertEquals(Duration.ofSeconds(1), Supervisor.backoff(1));
        assertEquals(Duration.ofSeconds(2), Supervisor.backoff(2));
        assertEquals(Duration.ofSeconds(16), Supervisor.backoff(5));
        assertEquals(Duration.ofSeconds(30), Supervisor.backoff(6));
        assertEquals(Duration.ofSeconds(30), Supervisor.backoff(1000));
    }

    @Test
    void aKilledProcessIsStartedAgainWithTheSameCommandAfterTheBackoff(@TempDir Path logs) throws Exception {
        ChildProcess child = ChildProcess.start("sleeper", List.of("sleep", "600"), Map.of(), logs.resolve("sleeper.log"));
        try {
            Supervisor supervisor = new Supervisor(HttpClient.newHttpClient());
            supervisor.watch(child, Optional.empty());
            long firstPid = child.pid();
            ProcessHandle victim = ProcessHandle.of(firstPid).orElseThrow();
            victim.destroyForcibly();
            victim.onExit().get();

            supervisor.check();
            assertFalse(child.isAlive(), "not restarted before the backoff has passed");
            Thread.sleep(Supervisor.FIRST_BACKOFF.toMillis());
            supervisor.check();

            assertTrue(child.isAlive(), "restarted after the backoff");
            assertNotEquals(firstPid, child.pid());
        } finally {
            child.stop(5);
        }
    }
}
