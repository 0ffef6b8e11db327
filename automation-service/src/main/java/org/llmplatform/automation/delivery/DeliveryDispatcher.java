package org.llmplatform.automation.delivery;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.automation.store.DeliveryJob;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Runs delivery attempts, at most {@code max-in-flight} at once. New deliveries are handed over in process:
 * the consumer reserves room here, inserts the deliveries already leased to this instance and hands them
 * over once they are committed, so their first attempt starts without a claim query. Everything else
 * (retries, deliveries inserted without room, rows of a crashed instance whose lease ran out, another
 * replica's backlog) is claimed from PostgreSQL, up to {@code batch-size} per query, when woken and on a
 * timer. Claims skip rows another dispatcher holds. On shutdown it stops claiming and lets the attempts
 * under way, reserved ones included, finish and be recorded, so a restart sends nothing twice.
 */
@ApplicationScoped
public class DeliveryDispatcher {

    private final DeliveryStore store;
    private final DeliveryAttempt attempt;
    private final int batchSize;
    private final int maxInFlight;
    private final Duration lease;
    private final Duration drainTimeout;
    private final PeriodicWorker claims;
    private final AtomicBoolean backlog = new AtomicBoolean();
    /** Attempts under way plus room reserved for deliveries about to be handed over. */
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running;

    public DeliveryDispatcher(Vertx vertx, DeliveryStore store, DeliveryAttempt attempt, AutomationConfig config) {
        this.store = store;
        this.attempt = attempt;
        this.batchSize = config.delivery().batchSize();
        this.maxInFlight = config.delivery().maxInFlight();
        this.lease = config.delivery().lease();
        this.drainTimeout = config.delivery().requestTimeout().plusSeconds(5);
        this.claims = new PeriodicWorker("Claiming due deliveries", vertx, config.delivery().pollInterval(), this::claimDue);
    }

    void start(@Observes StartupEvent startup) {
        running = true;
        claims.start();
    }

    void stop(@Observes ShutdownEvent shutdown) {
        running = false;
        claims.stop();
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while ((inFlight.get() > 0 || claims.busy()) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        if (inFlight.get() > 0) {
            Log.warnf("Stopped with %d delivery attempts unfinished; their leases return them to the queue", inFlight.get());
        }
    }

    /** How long a delivery inserted for {@link #handOver} stays leased to this instance. */
    public Duration lease() {
        return lease;
    }

    /**
     * Reserves room for up to {@code wanted} attempts that are about to be handed over; returns how many it
     * got (none while stopping or full). Every reservation ends in {@link #handOver} or {@link #release}.
     */
    public int reserve(int wanted) {
        while (running && wanted > 0) {
            int busy = inFlight.get();
            int granted = Math.min(wanted, maxInFlight - busy);
            if (granted <= 0) {
                return 0;
            }
            if (inFlight.compareAndSet(busy, busy + granted)) {
                return granted;
            }
        }
        return 0;
    }

    /**
     * Starts the first attempts of deliveries committed as leased to this instance, in the room reserved
     * for them, and gives back the rest of the reservation. Runs them even while stopping: the shutdown
     * waits for them, and their rows are leased to no one else.
     */
    public void handOver(List<DeliveryJob> jobs, int reserved) {
        launch(jobs);
        release(reserved - jobs.size());
    }

    /** Gives back reserved room that will not be used. */
    public void release(int reserved) {
        for (int i = 0; i < reserved; i++) {
            finished();
        }
    }

    /** Looks for due deliveries now; calls while a claim runs are folded into one more claim after it. */
    public void wake() {
        claims.wake();
    }

    /** One claim of up to a batch, as room allows; a full batch asks for the next claim at once. */
    private Uni<Boolean> claimDue() {
        int limit = reserve(batchSize);
        if (limit == 0) {
            backlog.set(true);
            return Uni.createFrom().item(false);
        }
        return store.claimDue(limit, lease)
                .onFailure().invoke(failure -> release(limit))
                .map(jobs -> {
                    backlog.set(jobs.size() == limit);
                    handOver(jobs, limit);
                    return jobs.size() == limit;
                });
    }

    /** Runs attempts whose room is already counted in {@link #inFlight}. */
    private void launch(List<DeliveryJob> jobs) {
        // The jobs of one claim or hand-over read their webhook's secrets at the same moment: decrypt once per webhook.
        Map<UUID, Uni<WebhookSecrets.Resolved>> secrets = new HashMap<>();
        for (DeliveryJob job : jobs) {
            Uni<WebhookSecrets.Resolved> resolved = secrets.computeIfAbsent(job.webhook().id(),
                    same -> attempt.secretsOf(job).memoize().indefinitely());
            attempt.run(job, resolved).subscribe().with(done -> finished(), failure -> {
                // The row stays SENDING; its lease runs out and another claim retries it.
                Log.errorf("Attempt %d of delivery %s could not be recorded: %s", job.attemptNumber(), job.id(), failure.getMessage());
                finished();
            });
        }
    }

    /**
     * An attempt ended (or reserved room was given back): when due rows were left behind, claim them once
     * there is room for half a batch (not one query per freed slot).
     */
    private void finished() {
        int room = maxInFlight - inFlight.decrementAndGet();
        if (backlog.get() && room >= Math.max(1, Math.min(batchSize, maxInFlight) / 2)) {
            wake();
        }
    }
}
