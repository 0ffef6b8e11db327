package org.llmplatform.training.service;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.support.worker.PeriodicWorker;
import org.llmplatform.training.config.TrainingConfig;
import org.llmplatform.training.store.JobStatus;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.ModelStore;

/**
 * Fails the jobs whose lease ran out, so that a client waiting on the events never waits forever: a
 * dispatched job no trainer started within the pickup timeout, or a running job whose trainer sent
 * nothing (not even a heartbeat) for the heartbeat lease. The trainer is told to cancel, in case it
 * only went quiet, and the model's next job is dispatched.
 */
@ApplicationScoped
public class LeaseWatcher {

    private static final Logger LOG = Logger.getLogger(LeaseWatcher.class);
    private static final int BATCH = 50;

    private final Pool pool;
    private final ModelStore models;
    private final JobStore jobs;
    private final JobLifecycle lifecycle;
    private final Outbox outbox;
    private final TrainingConfig config;
    private final PeriodicWorker checks;

    public LeaseWatcher(Pool pool, ModelStore models, JobStore jobs, JobLifecycle lifecycle, Outbox outbox, TrainingConfig config, Vertx vertx) {
        this.pool = pool;
        this.models = models;
        this.jobs = jobs;
        this.lifecycle = lifecycle;
        this.outbox = outbox;
        this.config = config;
        this.checks = new PeriodicWorker("Checking training job leases", vertx, config.jobs().leaseCheckInterval(), this::check);
    }

    void start(@Observes StartupEvent started) {
        checks.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        checks.stop();
    }

    /** Expires up to a batch of jobs; more wait for the next tick. */
    private Uni<Boolean> check() {
        return jobs.expiredLeases(BATCH)
                .onItem().transformToMulti(ids -> Multi.createFrom().iterable(ids))
                .onItem().transformToUniAndConcatenate(this::expire)
                .collect().asList()
                .replaceWith(false);
    }

    private Uni<Void> expire(UUID jobId) {
        return jobs.find(jobId).chain(found -> found.isEmpty() ? Uni.createFrom().voidItem()
                : pool.withTransaction(transaction -> models.lock(transaction, found.get().modelId())
                        .chain(model -> jobs.lock(transaction, jobId)
                                .chain(job -> jobs.leaseExpired(transaction, jobId).chain(expired -> {
                                    if (!expired || model.isEmpty() || job.isEmpty()) {
                                        return Uni.createFrom().voidItem();
                                    }
                                    String reason = job.get().status() == JobStatus.QUEUED
                                            ? "No trainer started the job within " + config.jobs().pickupTimeout().toSeconds() + " s"
                                            : "The trainer sent no event for " + config.jobs().heartbeatLease().toSeconds() + " s and is presumed gone";
                                    LOG.warnf("Failing training job %s: %s", jobId, reason);
                                    return lifecycle.abort(transaction, model.get(), job.get(), JobStatus.FAILED, reason, true);
                                }))))
                        .invoke(outbox::flush));
    }
}
