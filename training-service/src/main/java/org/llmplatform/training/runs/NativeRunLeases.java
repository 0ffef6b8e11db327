package org.llmplatform.training.runs;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.llmplatform.support.worker.PeriodicWorker;
import org.llmplatform.training.config.TrainingConfig;

/**
 * Fails the native run operations whose lease ran out, with their runs, so that a client waiting on an operation never
 * waits on a dead executor longer than {@code training.jobs.heartbeat-lease} (or, for one no executor started,
 * {@code training.jobs.pickup-timeout}): the same leases as jobs.
 */
@ApplicationScoped
public class NativeRunLeases {

    private static final int BATCH = 50;

    private final NativeRunStore store;
    private final NativeRunEvents events;
    private final TrainingConfig config;
    private final PeriodicWorker checks;

    public NativeRunLeases(NativeRunStore store, NativeRunEvents events, TrainingConfig config, Vertx vertx) {
        this.store = store;
        this.events = events;
        this.config = config;
        this.checks = new PeriodicWorker("Checking native run operation leases", vertx, config.jobs().leaseCheckInterval(), this::check);
    }

    void start(@Observes StartupEvent started) {
        checks.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        checks.stop();
    }

    private Uni<Boolean> check() {
        return store.expiredLeases(config.jobs().heartbeatLease(), config.jobs().pickupTimeout(), BATCH)
                .onItem().transformToMulti(ids -> Multi.createFrom().iterable(ids))
                .onItem().transformToUniAndConcatenate(id -> events.expire(id, config.jobs().heartbeatLease(), config.jobs().pickupTimeout()))
                .collect().asList()
                .replaceWith(false);
    }
}
