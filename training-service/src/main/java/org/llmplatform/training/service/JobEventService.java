package org.llmplatform.training.service;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.TrainingJobEvent;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.training.config.TrainingConfig;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobEventStore;
import org.llmplatform.training.store.JobStatus;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.Model;
import org.llmplatform.training.store.ModelStore;

/**
 * Materialises what trainers report into the job's status and its API events, so that a client sees
 * exactly one {@code training_started}, numeric-only {@code gradient_step}s after it and exactly one
 * terminal event. Every event renews the job's lease. An event whose {@code seq} is not above the last
 * one taken (a redelivery or a stale event) is dropped, as is anything about a job that already ended.
 * {@code training_ended} is shown only once checkpoint {@code parent_step + 1} is registered; until
 * then the job stays {@code RUNNING} and the checkpoint's registration completes it.
 */
@ApplicationScoped
public class JobEventService {

    private static final Logger LOG = Logger.getLogger(JobEventService.class);
    private static final String DEFAULT_FAILURE = "Training failed";

    private final Pool pool;
    private final ModelStore models;
    private final JobStore jobs;
    private final JobEventStore events;
    private final CheckpointStore checkpoints;
    private final JobLifecycle lifecycle;
    private final Outbox outbox;
    private final TrainingConfig config;

    public JobEventService(Pool pool, ModelStore models, JobStore jobs, JobEventStore events, CheckpointStore checkpoints,
            JobLifecycle lifecycle, Outbox outbox, TrainingConfig config) {
        this.pool = pool;
        this.models = models;
        this.jobs = jobs;
        this.events = events;
        this.checkpoints = checkpoints;
        this.lifecycle = lifecycle;
        this.outbox = outbox;
        this.config = config;
    }

    public Uni<Void> apply(UUID jobId, TrainingJobEvent event) {
        return jobs.find(jobId).chain(found -> {
            if (found.isEmpty()) {
                LOG.warnf("Skipped a %s event of unknown training job %s", event.type(), jobId);
                return Uni.createFrom().voidItem();
            }
            return pool.withTransaction(transaction -> models.lock(transaction, found.get().modelId())
                            .chain(model -> jobs.lock(transaction, jobId).chain(job -> model.isEmpty() || job.isEmpty()
                                    ? Uni.createFrom().voidItem()
                                    : applyLocked(transaction, model.get(), job.get(), event))))
                    .invoke(outbox::flush);
        });
    }

    private Uni<Void> applyLocked(SqlClient transaction, Model model, Job job, TrainingJobEvent event) {
        if (job.status().terminal() || !job.dispatched() || event.seq() <= job.lastSeq()) {
            LOG.debugf("Dropped %s event %d of training job %s (status %s, last seq %d)", event.type(), event.seq(), job.id(), job.status(),
                    job.lastSeq());
            return Uni.createFrom().voidItem();
        }
        return jobs.acceptSeq(transaction, job.id(), event.seq(), config.jobs().heartbeatLease())
                .chain(() -> switch (event.type()) {
                    case TrainingJobEvent.TYPE_TRAINING_STARTED -> started(transaction, job, event);
                    case TrainingJobEvent.TYPE_GRADIENT_STEP -> gradientStep(transaction, job, event);
                    case TrainingJobEvent.TYPE_TRAINING_ENDED -> ended(transaction, model, job);
                    case TrainingJobEvent.TYPE_TRAINING_FAILED -> lifecycle.abort(transaction, model, job, JobStatus.FAILED,
                            errorMessage(event), false);
                    default -> Uni.createFrom().voidItem();
                });
    }

    private Uni<Void> started(SqlClient transaction, Job job, TrainingJobEvent event) {
        if (job.status() != JobStatus.QUEUED) {
            return Uni.createFrom().voidItem();
        }
        Map<String, Object> data = Map.of("num_sequences", ((Number) event.data().get("num_sequences")).intValue());
        return jobs.markRunning(transaction, job.id())
                .chain(() -> events.append(transaction, job.id(), TrainingJobEvent.TYPE_TRAINING_STARTED, data));
    }

    private Uni<Void> gradientStep(SqlClient transaction, Job job, TrainingJobEvent event) {
        if (job.status() != JobStatus.RUNNING || job.endReported()) {
            LOG.warnf("Dropped a gradient_step of training job %s outside its training (status %s)", job.id(), job.status());
            return Uni.createFrom().voidItem();
        }
        return events.append(transaction, job.id(), TrainingJobEvent.TYPE_GRADIENT_STEP, numericOnly(event.data()));
    }

    private Uni<Void> ended(SqlClient transaction, Model model, Job job) {
        if (job.endReported()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> running = job.status() == JobStatus.QUEUED ? jobs.markRunning(transaction, job.id()) : Uni.createFrom().voidItem();
        return running.chain(() -> checkpoints.exists(transaction, model.id(), job.parentStep() + 1))
                .chain(saved -> saved
                        ? lifecycle.complete(transaction, model, job)
                        : jobs.markEndReported(transaction, job.id()));
    }

    /** ART converts every gradient_step value to float: booleans become 0/1, anything else that is not a number is left out. */
    private static Map<String, Object> numericOnly(Map<String, Object> data) {
        Map<String, Object> numeric = new LinkedHashMap<>();
        if (data != null) {
            data.forEach((name, value) -> {
                if (value instanceof Boolean flag) {
                    numeric.put(name, flag ? 1 : 0);
                } else if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
                    numeric.put(name, number);
                }
            });
        }
        return numeric;
    }

    private static String errorMessage(TrainingJobEvent event) {
        Object message = event.data() == null ? null : event.data().get("error_message");
        return message instanceof String text && !text.isBlank() ? text : DEFAULT_FAILURE;
    }
}
