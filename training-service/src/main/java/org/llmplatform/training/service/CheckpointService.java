package org.llmplatform.training.service;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.training.outbound.OutboundMessages;
import org.llmplatform.training.service.trajectory.TrajectoryValidation;
import org.llmplatform.training.store.Checkpoint;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobStatus;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.Model;
import org.llmplatform.training.store.ModelStore;

/**
 * The checkpoints of a model: listed by step for callers, registered as trainers save them (each new
 * one announced on {@code artifact.events}, and the job waiting for it completed), pruned on request,
 * and carrying the metrics that {@code log} computes for the model's current step.
 */
@ApplicationScoped
public class CheckpointService {

    /** Announcements of checkpoints that trainers saved name the service, as no caller is behind them. */
    private static final String TRAINER_AUTHOR = "training-service";

    private final Pool pool;
    private final ModelService models;
    private final ModelStore modelStore;
    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final JobLifecycle lifecycle;
    private final Outbox outbox;
    private final OutboundMessages messages;

    public CheckpointService(Pool pool, ModelService models, ModelStore modelStore, CheckpointStore checkpoints, JobStore jobs,
            JobLifecycle lifecycle, Outbox outbox, OutboundMessages messages) {
        this.pool = pool;
        this.models = models;
        this.modelStore = modelStore;
        this.checkpoints = checkpoints;
        this.jobs = jobs;
        this.lifecycle = lifecycle;
        this.outbox = outbox;
        this.messages = messages;
    }

    public Uni<Page<Checkpoint>> list(String modelId, PageRequest page) {
        return models.findAccessible(modelId)
                .chain(model -> afterStep(model, page.after())
                        .chain(afterStep -> checkpoints.list(model.id(), afterStep, page.descending(), page.limit() + 1)))
                .map(fetched -> Page.of(fetched, page.limit()));
    }

    /**
     * The step of model {@code entity/project/name} that {@code wandb-artifact:///entity/project/name[:stepN]} names
     * (the latest without a step), as {@code training.checkpoints} announces it: what the inference-gateway needs to
     * serve it. The gateway asks on behalf of a caller for a name it has not yet heard of on that topic, so what this
     * API acknowledged is servable at once. Job, metrics and time are not part of serving a step and stay empty.
     */
    public Uni<CheckpointSaved> serving(String entity, String project, String name, Integer step) {
        return models.findAccessibleByName(entity, project, name)
                .chain(model -> (step == null ? checkpoints.latest(pool, model.id()) : checkpoints.find(model.id(), step))
                        .map(found -> found.map(ref -> new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, model.id().toString(), null,
                                        model.entity(), model.project(), model.name(), model.baseModel(), ref.step(), ref.artifactUri(),
                                        Map.of(), null))
                                .orElseThrow(() -> ApiException.notFound("Model '" + entity + "/" + project + "/" + name
                                        + "' has no step " + step))));
    }

    /**
     * Registers the step a trainer saved; a step already registered stays as it is, and a checkpoint of
     * a job that was cancelled or failed meanwhile is not registered, since the next job owns that step.
     */
    public Uni<CheckpointSaveOutcome> register(UUID modelId, CheckpointSaved saved) {
        return pool.withTransaction(transaction -> modelStore.lock(transaction, modelId).chain(model -> model.isEmpty()
                        ? Uni.createFrom().item(CheckpointSaveOutcome.UNKNOWN_MODEL)
                        : register(transaction, model.get(), saved)))
                .invoke(outcome -> {
                    if (outcome == CheckpointSaveOutcome.REGISTERED) {
                        outbox.flush();
                    }
                });
    }

    /** {@link #register(UUID, CheckpointSaved)} in the caller's transaction, the model locked; the caller flushes the outbox. */
    public Uni<CheckpointSaveOutcome> register(SqlClient transaction, Model model, CheckpointSaved saved) {
        return savingJob(transaction, model, saved.jobId()).chain(job -> {
            if (job.isPresent() && (job.get().status() == JobStatus.CANCELLED || job.get().status() == JobStatus.FAILED)) {
                return Uni.createFrom().item(CheckpointSaveOutcome.ABANDONED_JOB);
            }
            return checkpoints.save(transaction, model.id(), saved.step(), saved.artifactUri(), saved.jobId(), finiteMetrics(saved.metrics()))
                    .chain(stored -> stored
                            ? outbox.add(transaction, messages.checkpointLinked(model, saved.step(), TRAINER_AUTHOR))
                                    .chain(() -> jobs.awaitingCheckpoint(transaction, model.id(), saved.step()))
                                    .chain(waiting -> waiting.map(done -> lifecycle.complete(transaction, model, done))
                                            .orElse(Uni.createFrom().voidItem()))
                                    .replaceWith(CheckpointSaveOutcome.REGISTERED)
                            : Uni.createFrom().item(CheckpointSaveOutcome.ALREADY_REGISTERED));
        });
    }

    private Uni<Optional<Job>> savingJob(SqlClient transaction, Model model, String jobId) {
        Optional<UUID> id = parseUuid(jobId);
        if (id.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return jobs.find(transaction, id.get()).map(job -> job.filter(found -> found.modelId().equals(model.id())));
    }

    /**
     * Deletes the asked steps that exist. The latest step is refused: the next training job starts from
     * it and {@code get_step()} reads it, so ART's own pruning always keeps it.
     */
    public Uni<CheckpointDeletion> delete(String modelId, DeleteCheckpoints request) {
        return models.findAccessible(modelId).chain(model -> delete(model, requestedSteps(request)));
    }

    private Uni<CheckpointDeletion> delete(Model model, List<Integer> steps) {
        return pool.withTransaction(transaction -> modelStore.lock(transaction, model.id())
                        .chain(() -> checkpoints.latest(transaction, model.id()))
                        .chain(latest -> {
                            if (latest.isPresent() && steps.contains(latest.get().step())) {
                                throw ApiException.conflict("Step " + latest.get().step() + " is the latest checkpoint of model '" + model.id()
                                        + "': the next training job starts from it, so it cannot be deleted");
                            }
                            return checkpoints.delete(transaction, model.id(), steps);
                        }))
                .map(deleted -> new CheckpointDeletion(deleted.size(), steps.stream().filter(step -> !deleted.contains(step)).toList()));
    }

    /** Computes the split's metrics (docs/training-service.md#trajectory-metrics) and adds them to the model's current checkpoint. */
    public Uni<LoggedMetrics> log(String modelId, LogRequest request) {
        return models.findAccessible(modelId).chain(model -> {
            checkLogRequest(request);
            Map<String, Double> metrics = TrajectoryMetrics.compute(request.split(), request.trajectoryGroups());
            return checkpoints.mergeIntoLatest(model.id(), metrics).map(step -> Map.entry(step, metrics));
        }).map(logged -> new LoggedMetrics(logged.getKey().orElseThrow(() -> ApiException.notFound("Model '" + modelId + "' has no checkpoint")),
                logged.getValue()));
    }

    private static void checkLogRequest(LogRequest request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        List<ValidationIssue> issues = new ArrayList<>();
        if (request.split() == null) {
            issues.add(new ValidationIssue("missing", List.of("body", "split"), "Field required", null));
        } else if (request.split().isBlank()) {
            issues.add(new ValidationIssue("string_too_short", List.of("body", "split"), "String should have at least 1 character", request.split()));
        }
        if (request.trajectoryGroups() == null) {
            issues.add(new ValidationIssue("missing", List.of("body", "trajectory_groups"), "Field required", null));
        } else {
            issues.addAll(TrajectoryValidation.check(request.trajectoryGroups(), List.of("body", "trajectory_groups")));
        }
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
    }

    private static List<Integer> requestedSteps(DeleteCheckpoints request) {
        if (request == null || request.steps() == null) {
            throw ApiException.missingField("steps");
        }
        for (int i = 0; i < request.steps().size(); i++) {
            if (request.steps().get(i) == null) {
                throw ApiException.invalidField("int_type", List.of("body", "steps", i), "Input should be a valid integer", null);
            }
        }
        return List.copyOf(new LinkedHashSet<>(request.steps()));
    }

    private Uni<Optional<Integer>> afterStep(Model model, Optional<UUID> after) {
        if (after.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return checkpoints.stepOf(model.id(), after.get()).invoke(step -> {
            if (step.isEmpty()) {
                throw ApiException.invalidField("value_error", List.of("query", "after"),
                        "Value error, '" + after.get() + "' is not a checkpoint of model '" + model.id() + "'", after.get().toString());
            }
        });
    }

    private static Optional<UUID> parseUuid(String id) {
        if (id == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException notAnId) {
            return Optional.empty();
        }
    }

    /** JSON numbers only: a trainer may report NaN or no value for a diverged metric, which the API cannot carry. */
    private static Map<String, Double> finiteMetrics(Map<String, Double> metrics) {
        Map<String, Double> finite = new LinkedHashMap<>();
        if (metrics != null) {
            metrics.forEach((name, value) -> {
                if (name != null && value != null && Double.isFinite(value)) {
                    finite.put(name, value);
                }
            });
        }
        return finite;
    }
}
