package org.llmplatform.training.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.commons.codec.digest.DigestUtils;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.model.events.TrainingJobConfig;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;
import org.llmplatform.training.service.trajectory.TrajectoryValidation;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobEvent;
import org.llmplatform.training.store.JobEventStore;
import org.llmplatform.training.store.JobKind;
import org.llmplatform.training.store.JobStatus;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.Model;
import org.llmplatform.training.store.ModelStore;

/**
 * Training jobs as callers see them: created from trajectory groups (stored in the blob store, claim
 * check), read with their events, cancelled. A retried create (same model, same trajectories, same
 * config) while the first job is unfinished returns that job instead of training twice.
 */
@ApplicationScoped
public class JobService {

    private final Pool pool;
    private final ModelService models;
    private final ModelStore modelStore;
    private final JobStore jobs;
    private final JobEventStore events;
    private final JobLifecycle lifecycle;
    private final BlobStore blobs;
    private final Outbox outbox;
    private final ObjectMapper json;

    public JobService(Pool pool, ModelService models, ModelStore modelStore, JobStore jobs, JobEventStore events, JobLifecycle lifecycle,
            BlobStore blobs, Outbox outbox, ObjectMapper json) {
        this.pool = pool;
        this.models = models;
        this.modelStore = modelStore;
        this.jobs = jobs;
        this.events = events;
        this.lifecycle = lifecycle;
        this.blobs = blobs;
        this.outbox = outbox;
        this.json = json;
    }

    /**
     * A model id that is a UUID is looked up first: a model the caller cannot see is a 404 however invalid the rest
     * of the body. A body naming no model id, or a malformed one, names nothing to protect: it is validated whole.
     */
    public Uni<Job> create(CreateTrainingJob request) {
        if (request == null || request.modelId() == null || parseId(request.modelId()).isEmpty()) {
            checkCreate(request);
        }
        return models.findAccessible(request.modelId()).chain(model -> create(request, model));
    }

    private Uni<Job> create(CreateTrainingJob request, Model model) {
        checkCreate(request);
        TrainingJobConfig config = TrainingConfigResolver.resolve(request.experimentalConfig());
        byte[] payload = write(Map.of("trajectory_groups", request.trajectoryGroups()));
        return blobs.put(payload).chain(stored -> enqueue(model, JobKind.RL, stored, config));
    }

    /**
     * Queues a job of the model on its stored input (dispatched at once when the model has no job with the trainers),
     * or returns the unfinished job created from the same model, input and config: a retried create trains once.
     */
    public Uni<Job> enqueue(Model model, JobKind kind, BlobReference input, Object config) {
        String configJson = new String(write(config), StandardCharsets.UTF_8);
        return pool.withTransaction(transaction -> modelStore.lock(transaction, model.id())
                        .chain(locked -> locked.isEmpty()
                                ? Uni.createFrom().failure(ApiException.notFound("Model '" + model.id() + "' not found"))
                                : createOrFindRetried(transaction, locked.get(), kind, input, configJson)))
                .invoke(outbox::flush);
    }

    public Uni<Job> find(String jobId) {
        Optional<UUID> id = parseId(jobId);
        if (id.isEmpty()) {
            return Uni.createFrom().failure(notFound(jobId));
        }
        return jobs.find(id.get()).chain(job -> job.isEmpty()
                ? Uni.createFrom().failure(notFound(jobId))
                : models.findAccessible(job.get().modelId().toString())
                        .onFailure(ApiException.class).transform(hidden -> notFound(jobId))
                        .replaceWith(job.get()));
    }

    /** The model's jobs (oldest first, or newest first when descending), past job {@code after} when given. */
    public Uni<Page<Job>> listForModel(String modelId, PageRequest page) {
        return models.findAccessible(modelId)
                .call(model -> page.after().isEmpty() ? Uni.createFrom().voidItem() : jobs.find(page.after().get()).invoke(found -> {
                    if (found.filter(job -> job.modelId().equals(model.id())).isEmpty()) {
                        throw ApiException.invalidField("value_error", List.of("query", "after"), "Value error, '" + page.after().get()
                                + "' is not a training job of model '" + model.id() + "'", page.after().get().toString());
                    }
                }))
                .chain(model -> jobs.listForModel(model.id(), page.after(), page.descending(), page.limit() + 1))
                .map(fetched -> Page.of(fetched, page.limit()));
    }

    /** The job's events after the one with id {@code after} (from the start when absent), at most {@code limit}, plus whether more follow. */
    public Uni<Page<JobEvent>> events(String jobId, Optional<UUID> after, int limit) {
        return find(jobId).chain(job -> afterPosition(job, after)
                .chain(position -> events.list(job.id(), position, limit + 1))
                .map(fetched -> Page.of(fetched, limit)));
    }

    /**
     * Cancels an unfinished job: it ends {@code CANCELLED} with a {@code training_failed} event (so a waiting
     * client returns), its trainer is told to stop, and the model's next job goes. Cancelling a cancelled job
     * changes nothing; a job that already completed or failed cannot be cancelled.
     */
    public Uni<Job> cancel(String jobId) {
        return find(jobId).chain(found -> pool.withTransaction(transaction -> modelStore.lock(transaction, found.modelId())
                        .chain(model -> jobs.lock(transaction, found.id()).chain(job -> cancel(transaction, model.orElseThrow(), job.orElseThrow()))))
                .invoke(outbox::flush)
                .chain(() -> jobs.find(found.id()))
                .map(Optional::orElseThrow));
    }

    private Uni<Void> cancel(SqlClient transaction, Model model, Job job) {
        if (job.status() == JobStatus.CANCELLED) {
            return Uni.createFrom().voidItem();
        }
        if (job.status().terminal()) {
            throw ApiException.conflict("Training job '" + job.id() + "' already ended with status " + job.status());
        }
        return lifecycle.abort(transaction, model, job, JobStatus.CANCELLED, "Training job cancelled on request", true);
    }

    private Uni<Job> createOrFindRetried(SqlClient transaction, Model model, JobKind kind, BlobReference trajectories, String configJson) {
        String digest = DigestUtils.sha256Hex(model.id() + "\n" + kind.wireName() + "\n" + trajectories.sha256() + "\n" + configJson);
        return jobs.findUnfinishedByDigest(transaction, model.id(), digest).chain(retried -> {
            if (retried.isPresent()) {
                return Uni.createFrom().item(retried.get());
            }
            UUID id = UUID.randomUUID();
            return jobs.insert(transaction, id, model.id(), kind, digest, trajectories, configJson)
                    .chain(() -> lifecycle.dispatchNext(transaction, model))
                    .chain(() -> jobs.find(transaction, id))
                    .map(Optional::orElseThrow);
        });
    }

    private Uni<Long> afterPosition(Job job, Optional<UUID> after) {
        if (after.isEmpty()) {
            return Uni.createFrom().item(0L);
        }
        return events.positionOf(job.id(), after.get()).map(position -> position.orElseThrow(() -> ApiException.invalidField("value_error",
                List.of("query", "after"), "Value error, '" + after.get() + "' is not an event of training job '" + job.id() + "'",
                after.get().toString())));
    }

    private static String checkCreate(CreateTrainingJob request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        List<ValidationIssue> issues = new ArrayList<>(modelIdIssues(request.modelId()));
        List<TrajectoryGroup> groups = request.trajectoryGroups();
        if (groups == null) {
            issues.add(new ValidationIssue("missing", List.of("body", "trajectory_groups"), "Field required", null));
        } else {
            issues.addAll(TrajectoryValidation.check(groups, List.of("body", "trajectory_groups")));
        }
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
        return request.modelId();
    }

    /** What is wrong with a job body's {@code model_id} (missing, not a UUID), as FastAPI words it; empty when nothing is. */
    public static List<ValidationIssue> modelIdIssues(String modelId) {
        if (modelId == null) {
            return List.of(new ValidationIssue("missing", List.of("body", "model_id"), "Field required", null));
        }
        if (parseId(modelId).isEmpty()) {
            return List.of(new ValidationIssue("uuid_parsing", List.of("body", "model_id"),
                    "Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]",
                    modelId));
        }
        return List.of();
    }

    private byte[] write(Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write " + value.getClass().getSimpleName(), e);
        }
    }

    private static Optional<UUID> parseId(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException notAnId) {
            return Optional.empty();
        }
    }

    private static ApiException notFound(String jobId) {
        return ApiException.notFound("Training job '" + jobId + "' not found");
    }
}
