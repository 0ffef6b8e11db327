package org.llmplatform.training.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.llmplatform.model.events.SftJobConfig;
import org.llmplatform.model.events.TrainingJobConfig;
import org.llmplatform.model.events.TrainingJobEvent;
import org.llmplatform.model.events.TrainingJobRequested;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.support.outbox.OutboxMessage;
import org.llmplatform.training.config.TrainingConfig;
import org.llmplatform.training.outbound.OutboundMessages;
import org.llmplatform.training.store.CheckpointRef;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobEventStore;
import org.llmplatform.training.store.JobKind;
import org.llmplatform.training.store.JobStatus;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.Model;

/**
 * The transitions of a job that end it or hand the next one to the trainers, inside the caller's
 * transaction, which must hold the model's row lock: that lock is what keeps a model's jobs strictly
 * one after another. A job is dispatched (parent step fixed, request published) only when no other job
 * of its model is with the trainers, so each job starts from the step its predecessor produced.
 */
@ApplicationScoped
public class JobLifecycle {

    private final JobStore jobs;
    private final JobEventStore events;
    private final CheckpointStore checkpoints;
    private final Outbox outbox;
    private final OutboundMessages messages;
    private final TrainingConfig config;
    private final ObjectMapper json;

    public JobLifecycle(JobStore jobs, JobEventStore events, CheckpointStore checkpoints, Outbox outbox, OutboundMessages messages,
            TrainingConfig config, ObjectMapper json) {
        this.jobs = jobs;
        this.events = events;
        this.checkpoints = checkpoints;
        this.outbox = outbox;
        this.messages = messages;
        this.config = config;
        this.json = json;
    }

    public Uni<Void> dispatchNext(SqlClient transaction, Model model) {
        return jobs.hasDispatchedUnfinished(transaction, model.id())
                .chain(busy -> busy ? Uni.createFrom().voidItem()
                        : jobs.nextUndispatched(transaction, model.id()).chain(next -> next
                                .map(job -> dispatch(transaction, model, job))
                                .orElse(Uni.createFrom().voidItem())));
    }

    /** The trainer's end is exposed only now that checkpoint {@code parent_step + 1} is registered. */
    public Uni<Void> complete(SqlClient transaction, Model model, Job job) {
        return events.append(transaction, job.id(), TrainingJobEvent.TYPE_TRAINING_ENDED, Map.of())
                .chain(() -> jobs.finish(transaction, job.id(), JobStatus.COMPLETED, null))
                .chain(() -> dispatchNext(transaction, model));
    }

    /** Ends the job as failed or cancelled; ART sees {@code training_failed}, the trainer (if it has the job) a cancel. */
    public Uni<Void> abort(SqlClient transaction, Model model, Job job, JobStatus status, String errorMessage, boolean tellTrainer) {
        return end(transaction, model, job, status, errorMessage, tellTrainer).chain(() -> dispatchNext(transaction, model));
    }

    /** Cancels every unfinished job of a model that is going away, handing none of them out. */
    public Uni<Void> cancelAll(SqlClient transaction, Model model, List<Job> unfinished, String reason) {
        Uni<Void> cancelled = Uni.createFrom().voidItem();
        for (Job job : unfinished) {
            cancelled = cancelled.chain(() -> end(transaction, model, job, JobStatus.CANCELLED, reason, true));
        }
        return cancelled;
    }

    private Uni<Void> end(SqlClient transaction, Model model, Job job, JobStatus status, String errorMessage, boolean tellTrainer) {
        List<OutboxMessage> orders = new ArrayList<>();
        if (tellTrainer && job.dispatched()) {
            orders.add(messages.cancel(job.id(), model.id(), errorMessage));
        }
        return events.append(transaction, job.id(), TrainingJobEvent.TYPE_TRAINING_FAILED, Map.of("error_message", errorMessage))
                .chain(() -> jobs.finish(transaction, job.id(), status, errorMessage))
                .chain(() -> outbox.add(transaction, orders));
    }

    private Uni<Void> dispatch(SqlClient transaction, Model model, Job job) {
        return checkpoints.latest(transaction, model.id())
                .chain(latest -> {
                    CheckpointRef parent = latest.orElse(new CheckpointRef(0, null));
                    boolean sft = job.kind() == JobKind.SFT;
                    TrainingJobRequested request = new TrainingJobRequested(TrainingJobRequested.SCHEMA_VERSION, job.id().toString(),
                            model.id().toString(), model.entity(), model.project(), model.name(), model.baseModel(), parent.step(),
                            parent.artifactUri(), sft ? null : read(job.configJson(), TrainingJobConfig.class), job.trajectories(), Instant.now(),
                            job.kind().wireName(), sft ? read(job.configJson(), SftJobConfig.class) : null);
                    return jobs.markDispatched(transaction, job.id(), parent.step(), config.jobs().pickupTimeout())
                            .chain(() -> outbox.add(transaction, List.of(messages.jobRequested(request))));
                });
    }

    private <T> T read(String configJson, Class<T> type) {
        try {
            return json.readValue(configJson, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored job config no longer reads as " + type.getSimpleName(), e);
        }
    }
}
