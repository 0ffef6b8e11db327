package org.llmplatform.automation.delivery;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.automation.store.DeliveryJob;
import org.llmplatform.automation.store.DeliveryStore;

/**
 * Claims due deliveries from PostgreSQL, up to {@code batch-size} per query, and runs their attempts
 * concurrently, at most {@code max-in-flight} at once. New deliveries wake it as soon as they commit; a
 * timer looks for due retries. Several instances (or replicas) share the queue: claims skip rows another
 * holds, and a lease returns rows a crashed one held. On shutdown it stops claiming and lets the attempts
 * under way finish and be recorded, so a restart sends nothing twice.
 */
@ApplicationScoped
public class DeliveryDispatcher {

    private final Vertx vertx;
    private final DeliveryStore store;
    private final DeliveryAttempt attempt;
    private final int batchSize;
    private final int maxInFlight;
    private final Duration lease;
    private final Duration pollInterval;
    private final Duration drainTimeout;
    private final AtomicBoolean claiming = new AtomicBoolean();
    private final AtomicBoolean wakeAgain = new AtomicBoolean();
    private final AtomicBoolean backlog = new AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running;
    private long timer;

    public DeliveryDispatcher(Vertx vertx, DeliveryStore store, DeliveryAttempt attempt, AutomationConfig config) {
        this.vertx = vertx;
        this.store = store;
        this.attempt = attempt;
        this.batchSize = config.delivery().batchSize();
        this.maxInFlight = config.delivery().maxInFlight();
        this.lease = config.delivery().lease();
        this.pollInterval = config.delivery().pollInterval();
        this.drainTimeout = config.delivery().requestTimeout().plusSeconds(5);
    }

    void start(@Observes StartupEvent startup) {
        running = true;
        timer = vertx.setPeriodic(pollInterval.toMillis(), tick -> wake());
    }

    void stop(@Observes ShutdownEvent shutdown) {
        running = false;
        vertx.cancelTimer(timer);
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while ((inFlight.get() > 0 || claiming.get()) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        if (inFlight.get() > 0) {
            Log.warnf("Stopped with %d delivery attempts unfinished; their leases return them to the queue", inFlight.get());
        }
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
        int room = maxInFlight - inFlight.get();
        if (room <= 0) {
            backlog.set(true);
            claiming.set(false);
            return;
        }
        int limit = Math.min(room, batchSize);
        store.claimDue(limit, lease).subscribe().with(jobs -> {
            launch(jobs);
            backlog.set(jobs.size() == limit);
            claiming.set(false);
            if (jobs.size() == limit || wakeAgain.get()) {
                wake();
            }
        }, failure -> {
            claiming.set(false);
            Log.warnf("Claiming due deliveries failed: %s", failure.getMessage());
        });
    }

    private void launch(List<DeliveryJob> jobs) {
        Map<List<String>, Uni<WebhookSecrets.Resolved>> secrets = new HashMap<>();
        for (DeliveryJob job : jobs) {
            Uni<WebhookSecrets.Resolved> resolved = secrets.computeIfAbsent(
                    Arrays.asList(job.entity(), job.accessTokenSecret(), job.signingSecret()),
                    same -> attempt.secretsOf(job).memoize().indefinitely());
            inFlight.incrementAndGet();
            attempt.run(job, resolved).subscribe().with(done -> finished(), failure -> {
                // The row stays SENDING; its lease runs out and another claim retries it.
                Log.errorf("Attempt %d of delivery %s could not be recorded: %s", job.attemptNumber(), job.id(), failure.getMessage());
                finished();
            });
        }
    }

    /**
     * An attempt ended: when due rows were left behind, claim them once there is room for half a batch (not
     * one query per freed slot).
     */
    private void finished() {
        int room = maxInFlight - inFlight.decrementAndGet();
        if (backlog.get() && room >= Math.max(1, Math.min(batchSize, maxInFlight) / 2)) {
            wake();
        }
    }
}
