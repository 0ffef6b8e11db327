package org.llmplatform.support.worker;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Background work done in rounds, one at a time: a round runs at start, on every tick of a timer and whenever
 * {@link #wake() woken}. A wake-up while a round runs is not lost, nor run beside it: it is folded into exactly
 * one more round right after. A round answers whether it left work behind (it took a full batch), and then the
 * next round follows at once. A failed round is logged and retried at the next tick or wake-up, not in a loop.
 * <p>
 * Not {@code quarkus-scheduler}: its skipped overlaps drop a wake-up that comes during a round, and a wake-up
 * must start the work at once (a webhook is sent, an outbox record published, within milliseconds).
 */
public final class PeriodicWorker {

    private static final Logger LOG = Logger.getLogger(PeriodicWorker.class);

    private final String name;
    private final Vertx vertx;
    private final Duration interval;
    private final Supplier<Uni<Boolean>> round;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean wanted = new AtomicBoolean();
    private volatile boolean started;
    private long timerId = -1;

    /**
     * @param name what the work is, for the log ("Publishing the outbox")
     * @param round one round; its item says whether work was left behind
     */
    public PeriodicWorker(String name, Vertx vertx, Duration interval, Supplier<Uni<Boolean>> round) {
        this.name = name;
        this.vertx = vertx;
        this.interval = interval;
        this.round = round;
    }

    /** Runs a round now and then every interval. */
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        timerId = vertx.setPeriodic(interval.toMillis(), tick -> wake());
        wake();
    }

    /** No round starts after this; one under way finishes (see {@link #busy()}). */
    public synchronized void stop() {
        started = false;
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** Whether a round is under way. */
    public boolean busy() {
        return running.get();
    }

    /**
     * Asks for a round: starts one now, or, while one runs, exactly one more after it. The flag is raised before
     * the running round is looked at, so a round that ends meanwhile sees it.
     */
    public void wake() {
        if (!started) {
            return;
        }
        wanted.set(true);
        runIfWanted();
    }

    private void runIfWanted() {
        while (started && running.compareAndSet(false, true)) {
            if (wanted.getAndSet(false)) {
                runRound();
                return;
            }
            running.set(false);
            if (!wanted.get()) {
                return;
            }
        }
    }

    private void runRound() {
        Uni<Boolean> thisRound;
        try {
            thisRound = round.get();
        } catch (RuntimeException failure) {
            thisRound = Uni.createFrom().failure(failure);
        }
        thisRound.subscribe().with(workLeft -> {
            if (Boolean.TRUE.equals(workLeft)) {
                wanted.set(true);
            }
            running.set(false);
            runIfWanted();
        }, failure -> {
            running.set(false);
            LOG.warnf("%s failed, will retry: %s", name, failure.toString());
        });
    }
}
