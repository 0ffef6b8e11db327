package org.llmplatform.support.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each round is a future the test completes; a round's end runs on the completing thread, so the rounds it
 * starts are visible as soon as {@code complete} returns.
 */
class PeriodicWorkerTest {

    private static final Duration NO_TICK = Duration.ofHours(1);

    private Vertx vertx;
    private final List<CompletableFuture<Boolean>> rounds = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stopVertx() {
        vertx.closeAndAwait();
    }

    private PeriodicWorker worker(Duration interval) {
        return new PeriodicWorker("Test work", vertx, interval, () -> {
            CompletableFuture<Boolean> round = new CompletableFuture<>();
            rounds.add(round);
            return Uni.createFrom().completionStage(round);
        });
    }

    @Test
    void aRoundRunsAtStartAndWhenWoken() {
        PeriodicWorker worker = worker(NO_TICK);
        worker.wake();
        assertEquals(0, rounds.size(), "a worker that was not started does nothing");
        worker.start();
        assertEquals(1, rounds.size());
        assertTrue(worker.busy());
        rounds.get(0).complete(false);
        assertFalse(worker.busy());
        assertEquals(1, rounds.size(), "nothing asked for another round");
        worker.wake();
        assertEquals(2, rounds.size());
        rounds.get(1).complete(false);
        worker.stop();
    }

    @Test
    void wakeUpsDuringARoundBecomeExactlyOneMoreRound() {
        PeriodicWorker worker = worker(NO_TICK);
        worker.start();
        worker.wake();
        worker.wake();
        worker.wake();
        assertEquals(1, rounds.size(), "no round runs beside another");
        rounds.get(0).complete(false);
        assertEquals(2, rounds.size(), "the wake-ups are folded into one round after it");
        rounds.get(1).complete(false);
        assertEquals(2, rounds.size());
        worker.stop();
    }

    @Test
    void aRoundThatLeftWorkIsFollowedAtOnce() {
        PeriodicWorker worker = worker(NO_TICK);
        worker.start();
        rounds.get(0).complete(true);
        rounds.get(1).complete(true);
        rounds.get(2).complete(false);
        assertEquals(3, rounds.size());
        assertFalse(worker.busy());
        worker.stop();
    }

    @Test
    void aFailedRoundIsRetriedOnTheNextWakeUpNotInALoop() {
        PeriodicWorker worker = worker(NO_TICK);
        worker.start();
        rounds.get(0).completeExceptionally(new IllegalStateException("database down"));
        assertEquals(1, rounds.size());
        assertFalse(worker.busy());
        worker.wake();
        assertEquals(2, rounds.size());
        rounds.get(1).complete(false);
        worker.stop();
    }

    @Test
    void aRoundThatThrowsInsteadOfFailingDoesNotStopTheWorker() {
        List<String> calls = new CopyOnWriteArrayList<>();
        PeriodicWorker worker = new PeriodicWorker("Throwing work", vertx, NO_TICK, () -> {
            calls.add("round");
            throw new IllegalArgumentException("bug");
        });
        worker.start();
        worker.wake();
        assertEquals(2, calls.size());
        assertFalse(worker.busy());
        worker.stop();
    }

    @Test
    void stoppedWorkerStartsNoRoundButLetsTheRunningOneFinish() {
        PeriodicWorker worker = worker(NO_TICK);
        worker.start();
        worker.wake();
        worker.stop();
        assertTrue(worker.busy());
        rounds.get(0).complete(true);
        assertFalse(worker.busy());
        worker.wake();
        assertEquals(1, rounds.size(), "neither the wake-up nor the work left starts a round after stop");
    }

    @Test
    void theTimerRunsRounds() throws InterruptedException {
        LinkedBlockingQueue<Long> started = new LinkedBlockingQueue<>();
        PeriodicWorker worker = new PeriodicWorker("Ticking work", vertx, Duration.ofMillis(20), () -> {
            started.add(System.nanoTime());
            return Uni.createFrom().item(false);
        });
        worker.start();
        for (int round = 0; round < 3; round++) {
            assertNotNull(started.poll(5, TimeUnit.SECONDS), "round " + round + " did not start");
        }
        worker.stop();
    }
}
