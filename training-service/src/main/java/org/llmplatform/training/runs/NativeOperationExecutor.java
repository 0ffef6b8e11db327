package org.llmplatform.training.runs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.model.events.LearnerStateRef;
import org.llmplatform.model.events.NativeOperationEvent;
import org.llmplatform.model.events.NativeOperationRequested;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.outbound.TrainerPublisher;
import org.llmplatform.training.service.AdapterStorage;
import org.llmplatform.training.service.EmbeddedModel;

/**
 * The embedded trainer's executor of native run operations (docs/training-service.md#native-runs-over-kafka), a
 * consumer of {@code training.runs.operations} as a GPU worker is: it takes the operations of its base model in the
 * order of their run's partition, keeps each run's learner in memory, executes them one at a time on its thread and
 * reports on {@code training.runs.events} (running, heartbeats, then the outcome). It touches no table: what must be
 * registered (sampler weights, saved states) it writes as blobs and names in its event, for the service to register.
 * A run's learner is built at the run's first operation; an operation of a run whose learner is not here (it was on a
 * replica that died, whose partitions came here) fails {@code learner_lost}, and with it the run.
 */
@ApplicationScoped
public class NativeOperationExecutor {

    private static final Logger LOG = Logger.getLogger(NativeOperationExecutor.class);

    private final TrainerConfig config;
    private final EmbeddedModel model;
    private final BlobStore blobs;
    private final AdapterStorage adapters;
    private final TrainerPublisher publisher;
    private final NativeRunOrders orders;
    private final ObjectMapper json;
    private final String executorId = "embedded-" + UUID.randomUUID();
    private final Map<String, HeldRun> runs = new ConcurrentHashMap<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> daemon(task, "native-run-executor"));
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(
            task -> daemon(task, "native-run-heartbeat"));

    public NativeOperationExecutor(TrainerConfig config, EmbeddedModel model, BlobStore blobs, AdapterStorage adapters,
            TrainerPublisher publisher, NativeRunOrders orders, ObjectMapper json) {
        this.config = config;
        this.model = model;
        this.blobs = blobs;
        this.adapters = adapters;
        this.publisher = publisher;
        this.orders = orders;
        this.json = json;
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    void stop(@Observes ShutdownEvent shutdown) {
        thread.shutdownNow();
        heartbeats.shutdownNow();
    }

    /** A run's learner here, and the last of its operations taken (a redelivered one is not run twice). */
    private static final class HeldRun {
        NativeLearner learner;
        long lastSequence;

        HeldRun(NativeLearner learner, long lastSequence) {
            this.learner = learner;
            this.lastSequence = lastSequence;
        }
    }

    /** Completes when the operation was executed or skipped; execution runs on the executor's thread. */
    public Uni<Void> accept(NativeOperationRequested request) {
        if (!config.baseModel().equals(request.baseModel())) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().item(() -> {
            take(request);
            return (Void) null;
        }).runSubscriptionOn(thread);
    }

    private void take(NativeOperationRequested request) {
        runs.keySet().removeIf(orders::closed);
        if (orders.closed(request.runId()) || orders.cancelled(request.operationId())) {
            LOG.debugf("Skipped native operation %s: its run was closed or it was cancelled", request.operationId());
            return;
        }
        HeldRun held = runs.get(request.runId());
        if (held != null && request.sequenceId() <= held.lastSequence) {
            LOG.infof("Skipped native operation %s: taken before (a redelivered record)", request.operationId());
            return;
        }
        OperationReporter reporter = new OperationReporter(request);
        if (held == null && request.sequenceId() != 0) {
            LOG.warnf("Native run %s has no learner here (its executor was lost); failing it at operation %s", request.runId(),
                    request.operationId());
            reporter.send(NativeOperationEvent.TYPE_FAILED, null, null, NativeOperationEvent.LEARNER_LOST, "The run's learner was on an "
                    + "executor that is gone; resolve a new run from a saved state");
            return;
        }
        long interval = config.heartbeatInterval().toMillis();
        reporter.send(NativeOperationEvent.TYPE_RUNNING, null, null, null, null);
        ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(reporter::heartbeat, interval, interval, TimeUnit.MILLISECONDS);
        try {
            if (held == null) {
                held = new HeldRun(initialLearner(request), 0);
                runs.put(request.runId(), held);
            }
            held.lastSequence = request.sequenceId();
            execute(request, held, reporter);
        } catch (NativeLearner.OperationCancelledException cancelled) {
            reporter.send(NativeOperationEvent.TYPE_CANCELLED, null, null, null, null);
        } catch (NativeLearner.InvalidBatchException invalid) {
            reporter.send(NativeOperationEvent.TYPE_FAILED, null, null, "invalid_batch", invalid.getMessage());
        } catch (OperationFailure failure) {
            LOG.infof("Native operation %s (%s) of run %s failed: %s", request.operationId(), request.kind(), request.runId(), failure.getMessage());
            reporter.send(NativeOperationEvent.TYPE_FAILED, null, null, failure.code, failure.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.errorf(e, "Native operation %s (%s) of run %s failed", request.operationId(), request.kind(), request.runId());
            reporter.send(NativeOperationEvent.TYPE_FAILED, null, null, "internal_error",
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } finally {
            heartbeat.cancel(false);
        }
    }

    /** Runs the operation on the run's learner and reports its success; what goes wrong is reported by {@link #take}. */
    private void execute(NativeOperationRequested request, HeldRun held, OperationReporter reporter) throws IOException {
        RunCommand command = RunCommands.parse(request.kind(), json.readTree(blobs.get(request.command()).await().indefinitely()));
        ObjectNode result = result(request);
        LearnerStateRef saved = null;
        if (command instanceof RunCommand.Forward forward) {
            forward(request, held.learner, forward, result);
        } else if (command instanceof RunCommand.OptimStep step) {
            optimStep(request, held.learner, step, result);
        } else if (command instanceof RunCommand.SaveWeightsForSampler save) {
            saved = new LearnerStateRef(null, adapters.save(held.learner.adapter()).await().indefinitely(), null, null, null);
            result.put("learner_version", request.learnerParentVersion());
            result.put("target", save.target());
            result.put("model_alias", save.modelAlias());
        } else if (command instanceof RunCommand.SaveState) {
            saved = new LearnerStateRef(null, adapters.save(held.learner.adapter()).await().indefinitely(),
                    adapters.save(held.learner.firstMoment()).await().indefinitely(),
                    adapters.save(held.learner.secondMoment()).await().indefinitely(), held.learner.optimizerSteps());
            result.putObject("metrics").put("optimizer_steps", held.learner.optimizerSteps());
            result.putNull("archive");
        } else {
            RunCommand.LoadState load = (RunCommand.LoadState) command;
            NativeLearner loaded = restore(request.loadState(), load.checkpointId());
            throwIfCancelled(request);
            held.learner = loaded;
            result.putObject("metrics");
            result.set("checkpoint", NativeOperation.checkpointResult(load.checkpointId(), request.reservedOutputLearnerVersion()));
            result.put("optimizer_restored", load.restoreOptimizer());
        }
        reporter.send(NativeOperationEvent.TYPE_SUCCEEDED, result, saved, null, null);
    }

    /** The learner a run starts with: its initial state when it names one, else the identity adapter of its rank and targets. */
    private NativeLearner initialLearner(NativeOperationRequested request) {
        if (request.initialState() != null) {
            return restore(request.initialState(), request.initialState().checkpointId());
        }
        JsonNode spec = request.spec();
        long seed = spec.path("seed").isIntegralNumber() ? spec.path("seed").asLong() : config.seed();
        LoraAdapter identity = LoraAdapter.identity(model.engine().config(), spec.path("lora_rank").asInt(config.loraRank()),
                config.loraAlpha(), seed);
        LoraParameters parameters = LoraParameters.of(model.engine().config(), identity);
        Set<String> targeted = new HashSet<>();
        spec.path("lora_target_modules").forEach(module -> targeted.add(module.asText()));
        for (int layer = 0; layer < model.engine().config().layers(); layer++) {
            for (LoraTarget target : LoraTarget.values()) {
                if (!targeted.contains(target.module())) {
                    java.util.Arrays.fill(parameters.a(layer, target), 0);
                }
            }
        }
        return NativeLearner.fresh(model.trainableModel(), parameters.toAdapter());
    }

    /** A saved learner (the service resolved it to blobs, with the optimizer only where it is restored). */
    private NativeLearner restore(LearnerStateRef state, String checkpointId) {
        if (state == null) {
            throw new OperationFailure("checkpoint_not_found", "No saved state '" + checkpointId + "' of this caller");
        }
        LoraAdapter adapter = adapters.load(state.adapterUri()).await().indefinitely();
        if (!state.withOptimizer()) {
            return NativeLearner.restored(model.trainableModel(), adapter, null, null, 0);
        }
        return NativeLearner.restored(model.trainableModel(), adapter, adapters.load(state.firstMomentUri()).await().indefinitely(),
                adapters.load(state.secondMomentUri()).await().indefinitely(), state.optimizerSteps());
    }

    private void forward(NativeOperationRequested request, NativeLearner learner, RunCommand.Forward command, ObjectNode result) {
        long started = System.nanoTime();
        NativeLearner.ForwardOutcome outcome = learner.forward(command, () -> orders.cancelled(request.operationId()));
        throwIfCancelled(request);
        if (command.backward() && outcome.activeTokens() > 0) {
            learner.accumulate(outcome, request.operationId());
        }
        ObjectNode metrics = result.putObject("metrics");
        metrics.put("loss", outcome.loss());
        metrics.put("active_tokens", outcome.activeTokens());
        metrics.put("time_s", (System.nanoTime() - started) / 1e9);
        int sequences = command.sequences().size();
        ObjectNode packing = result.putObject("packing");
        packing.put("packed_sequence_length", outcome.longest());
        packing.put("packed_sequences", sequences);
        packing.put("target_packed_sequences", sequences);
        packing.put("logical_tokens", outcome.tokens());
        packing.put("physical_tokens", outcome.tokens());
        packing.put("packed_capacity_tokens", (long) sequences * outcome.longest());
        packing.put("padding_tokens", (long) sequences * outcome.longest() - outcome.tokens());
        if (command.backward()) {
            ObjectNode training = result.putObject("training");
            training.put("accepted_trainable_tokens", outcome.activeTokens());
            training.putNull("policy_token_counts");
            ObjectNode loss = result.putObject("loss");
            loss.put("contract_id", command.lossName() + "_v1");
            loss.put("value", outcome.loss());
            loss.put("reduction", "mean_active_token");
            result.put("produced_gradient", outcome.activeTokens() > 0);
        }
        if (command.returnTokenLogprobs()) {
            ArrayNode logprobs = result.putArray("token_logprobs");
            for (int i = 0; i < sequences; i++) {
                float[] values = outcome.targetLogprobs().get(i);
                ByteBuffer buffer = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                for (float value : values) {
                    buffer.putFloat(value);
                }
                ObjectNode matrix = logprobs.addObject();
                matrix.put("matrix_id", command.sequences().get(i).matrixId());
                matrix.putArray("shape").add(values.length).add(1);
                matrix.put("data", Base64.getEncoder().encodeToString(buffer.array()));
            }
        }
    }

    private void optimStep(NativeOperationRequested request, NativeLearner learner, RunCommand.OptimStep command, ObjectNode result) {
        List<String> contributions = learner.contributions();
        if (contributions.isEmpty()) {
            throw new OperationFailure("no_gradient", "optim_step needs a forward_backward with loss-bearing tokens since the last step");
        }
        throwIfCancelled(request);
        // The factor the embedded trainer applies to every job's rate (training.trainer.learning-rate-multiplier).
        double learningRate = command.learningRate() * config.learningRateMultiplier();
        double gradNorm = learner.step(command, learningRate);
        long version = request.reservedOutputLearnerVersion();
        result.putObject("metrics").put("grad_norm", gradNorm).put("learning_rate", learningRate);
        ArrayNode ids = result.putArray("contributing_operation_ids");
        contributions.forEach(ids::add);
        result.put("learner_version", version);
        result.set("checkpoint", NativeOperation.checkpointResult(request.runId() + "@v" + version, version));
    }

    private void throwIfCancelled(NativeOperationRequested request) {
        if (orders.cancelled(request.operationId())) {
            throw new NativeLearner.OperationCancelledException();
        }
    }

    private ObjectNode result(NativeOperationRequested request) {
        ObjectNode result = json.createObjectNode();
        result.put("operation_id", request.operationId());
        result.put("kind", request.kind());
        return result;
    }


    /** An operation that cannot run as asked: it fails with {@code code}, the message goes to the log and the operation's record. */
    static final class OperationFailure extends RuntimeException {
        private final String code;

        OperationFailure(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** The events of one operation, numbered 1, 2, … (heartbeats come from another thread, so under one lock). */
    private final class OperationReporter {
        private final NativeOperationRequested request;
        private long seq;
        private boolean ended;

        OperationReporter(NativeOperationRequested request) {
            this.request = request;
        }

        void heartbeat() {
            try {
                send(NativeOperationEvent.TYPE_HEARTBEAT, null, null, null, null);
            } catch (RuntimeException e) {
                LOG.warnf("A heartbeat of native operation %s was not sent: %s", request.operationId(), e.getMessage());
            }
        }

        synchronized void send(String type, JsonNode result, LearnerStateRef saved, String errorCode, String errorMessage) {
            if (ended) {
                return;
            }
            ended = !NativeOperationEvent.TYPE_RUNNING.equals(type) && !NativeOperationEvent.TYPE_HEARTBEAT.equals(type);
            publisher.operationEvent(new NativeOperationEvent(NativeOperationEvent.SCHEMA_VERSION, request.operationId(), request.runId(),
                    executorId, ++seq, type, result, saved, errorCode, errorMessage, Instant.now()));
        }
    }
}
