package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.model.events.TrainingJobRequested;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.outbound.TrainerPublisher;
import org.llmplatform.training.service.trainer.GrpoTrainer;
import org.llmplatform.training.service.trainer.JobCancelledException;
import org.llmplatform.training.service.trainer.TrainingOutcome;
import org.llmplatform.training.service.trajectory.SftDataset;
import org.llmplatform.training.service.trajectory.SftExample;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.TrainerClaimStore;

/**
 * The embedded trainer's side of the job protocol (docs/training-service.md#job-protocol): takes a requested job (RL or SFT) of its base model
 * once (claimed by job id; a job that already ended or that this service does not know is skipped), loads the
 * trajectories by their claim check and the parent adapter by its artifact URI, trains on a trainer thread
 * with heartbeats, stores checkpoint {@code parent_step + 1}, announces it on {@code training.checkpoints} and
 * only then reports {@code training_ended}. Any failure is reported as {@code training_failed}; a cancelled
 * job stops between rows and reports nothing more.
 */
@ApplicationScoped
public class EmbeddedTrainerService {

    private static final Logger LOG = Logger.getLogger(EmbeddedTrainerService.class);

    private final TrainerConfig config;
    private final EmbeddedModel model;
    private final TrainerClaimStore claims;
    private final JobStore jobs;
    private final BlobStore blobs;
    private final AdapterStorage adapters;
    private final TrainerPublisher publisher;
    private final CancelledJobs cancelledJobs;
    private final ObjectMapper json;
    private final ExecutorService trainerThreads;
    private final ScheduledExecutorService heartbeats;

    public EmbeddedTrainerService(TrainerConfig config, EmbeddedModel model, TrainerClaimStore claims, JobStore jobs, BlobStore blobs,
            AdapterStorage adapters, TrainerPublisher publisher, CancelledJobs cancelledJobs, ObjectMapper json) {
        this.config = config;
        this.model = model;
        this.claims = claims;
        this.jobs = jobs;
        this.blobs = blobs;
        this.adapters = adapters;
        this.publisher = publisher;
        this.cancelledJobs = cancelledJobs;
        this.json = json;
        AtomicInteger count = new AtomicInteger();
        this.trainerThreads = Executors.newFixedThreadPool(Math.max(1, config.threads()), task -> {
            Thread thread = new Thread(task, "embedded-trainer-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "embedded-trainer-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Completes when the job was trained (or skipped); training itself runs on a trainer thread. */
    public Uni<Void> accept(TrainingJobRequested request, UUID jobId) {
        if (!config.baseModel().equals(request.baseModel())) {
            LOG.debugf("Left training job %s of base model %s to other trainers", jobId, request.baseModel());
            return Uni.createFrom().voidItem();
        }
        return jobs.find(jobId).chain(job -> {
            if (job.isEmpty() || job.get().status().terminal() || cancelledJobs.isCancelled(jobId.toString())) {
                LOG.infof("Skipped training job %s: it is unknown here or already ended", jobId);
                return Uni.createFrom().voidItem();
            }
            return claims.claim(jobId).chain(first -> {
                if (!first) {
                    LOG.infof("Skipped training job %s: it was taken on before (a redelivered request)", jobId);
                    return Uni.createFrom().voidItem();
                }
                return Uni.createFrom().item(() -> {
                    run(request);
                    return (Void) null;
                }).runSubscriptionOn(trainerThreads);
            });
        });
    }

    private void run(TrainingJobRequested request) {
        JobReporter reporter = new JobReporter(publisher, cancelledJobs, request.modelId(), request.jobId());
        long interval = config.heartbeatInterval().toMillis();
        ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(() -> beat(reporter), interval, interval, TimeUnit.MILLISECONDS);
        try {
            GrpoTrainer trainer = model.trainer();
            boolean sft = TrainingJobRequested.KIND_SFT.equals(request.kindOrRl());
            List<TrajectoryGroup> groups = sft ? List.of() : trajectories(request);
            List<SftExample> examples = sft ? SftDataset.parse(stored(request), json) : List.of();
            LoraAdapter parent = request.parentArtifactUri() == null
                    ? trainer.initialAdapter()
                    : adapters.load(request.parentArtifactUri()).await().indefinitely();
            long started = System.nanoTime();
            TrainingOutcome outcome = sft
                    ? model.sftTrainer().train(examples, request.sft(), parent, reporter)
                    : trainer.train(groups, request.config(), parent, request.parentStep(), reporter);
            if (reporter.cancelled()) {
                throw new JobCancelledException(request.jobId());
            }
            String artifactUri = adapters.save(outcome.adapter()).await().indefinitely();
            publisher.checkpoint(new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, request.modelId(), request.jobId(), request.entity(),
                    request.project(), request.modelName(), request.baseModel(), request.parentStep() + 1, artifactUri,
                    trainMetrics(outcome, started), Instant.now()));
            reporter.ended();
            LOG.infof("Trained job %s of model %s: step %d, %d gradient steps, %d tokens", request.jobId(), request.modelId(),
                    request.parentStep() + 1, outcome.gradientSteps(), outcome.trainedTokens());
        } catch (JobCancelledException cancelled) {
            LOG.infof("Stopped training job %s: it was cancelled", request.jobId());
        } catch (RuntimeException failure) {
            LOG.errorf(failure, "Training job %s failed", request.jobId());
            reporter.failed("Embedded trainer failed: " + (failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage()));
        } finally {
            heartbeat.cancel(false);
        }
    }

    private static void beat(JobReporter reporter) {
        try {
            reporter.heartbeat();
        } catch (RuntimeException e) {
            LOG.warnf("Could not send a heartbeat: %s", e.getMessage());
        }
    }

    private byte[] stored(TrainingJobRequested request) {
        if (request.trajectories() == null) {
            throw new IllegalArgumentException("the job request names no trajectories");
        }
        return blobs.get(request.trajectories()).await().indefinitely();
    }

    private List<TrajectoryGroup> trajectories(TrainingJobRequested request) {
        byte[] payload = stored(request);
        try {
            JsonNode groups = json.readTree(payload).get("trajectory_groups");
            if (groups == null || !groups.isArray()) {
                throw new IllegalArgumentException("the stored trajectories hold no trajectory_groups list");
            }
            return json.readerForListOf(TrajectoryGroup.class).readValue(groups);
        } catch (IOException e) {
            throw new IllegalArgumentException("the stored trajectories are not readable: " + e.getMessage(), e);
        }
    }

    private static Map<String, Double> trainMetrics(TrainingOutcome outcome, long startedNanos) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        outcome.metrics().forEach((name, value) -> metrics.put("train/" + name, value));
        metrics.put("time/step_backend_train_s", (System.nanoTime() - startedNanos) / 1e9);
        return metrics;
    }

    @PreDestroy
    void stop() {
        heartbeats.shutdownNow();
        trainerThreads.shutdownNow();
    }
}
