package org.llmplatform.automation.delivery;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.automation.store.DeliveryJob;
import org.llmplatform.automation.store.DeliveryStore;

/**
 * Claims due deliveries from PostgreSQL and runs their attempts, at most {@code batch-size} at once. It
 * polls on a timer and is woken when new deliveries commit or an attempt ends. Several instances (or
 * replicas) share the queue: claims skip rows another holds, and a lease returns rows a crashed one held.
 */
@ApplicationScoped
public class DeliveryDispatcher {

    private final Vertx vertx;
    private final DeliveryStore store;
    private final DeliveryAttempt attempt;
    private final int capacity;
    private final Duration lease;
    private final Duration pollInterval;
    private final AtomicBoolean claiming = new AtomicBoolean();
    private final AtomicBoolean wakeAgain = new AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running;
    private long timer;

    public DeliveryDispatcher(Vertx vertx, DeliveryStore store, DeliveryAttempt attempt, AutomationConfig config) {
        this.vertx = vertx;
        this.store = store;
        this.attempt = attempt;
        this.capacity = config.delivery().batchSize();
        this.lease = config.delivery().lease();
        this.pollInterval = config.delivery().pollInterval();
    }

    void start(@Observes StartupEvent startup) {
        running = true;
        timer = vertx.setPeriodic(pollInterval.toMillis(), tick -> wake());
    }

    void stop(@Observes ShutdownEvent shutdown) {
        running = false;
        vertx.cancelTimer(timer);
    }

    /** Looks for due deliveries now; calls while a claim runs are folded into one more claim after it. */
    public void wake() {
        if (!running) {
            return;
        }
        if (!claiming.compareAndSet(false, true)) {
            wakeAgain.set(true);
            return;
        }
        wakeAgain.set(false);
        int room = capacity - inFlight.get();
        if (room <= 0) {
            claiming.set(false);
            return;
        }
        store.claimDue(room, lease).subscribe().with(jobs -> {
            jobs.forEach(this::launch);
            claiming.set(false);
            if (jobs.size() == room || wakeAgain.get()) {
                wake();
            }
        }, failure -> {
            claiming.set(false);
            Log.warnf("Claiming due deliveries failed: %s", failure.getMessage());
        });
    }

    private void launch(DeliveryJob job) {
        inFlight.incrementAndGet();
        attempt.run(job).subscribe().with(done -> finished(), failure -> {
            // The row stays SENDING; its lease runs out and another claim retries it.
            Log.errorf("Attempt %d of delivery %s could not be recorded: %s", job.attemptNumber(), job.id(), failure.getMessage());
            finished();
        });
    }

    private void finished() {
        inFlight.decrementAndGet();
        wake();
    }
}
