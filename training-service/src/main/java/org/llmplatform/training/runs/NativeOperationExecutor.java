package org.llmplatform.training.runs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.outbound.TrainerPublisher;
import org.llmplatform.training.service.AdapterStorage;
import org.llmplatform.training.service.CheckpointService;
import org.llmplatform.training.service.EmbeddedModel;
import org.llmplatform.training.store.CheckpointRef;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Model;

/**
 * The embedded trainer's executor of native run operations (docs/training-service.md#native-training-api): one thread
 * that claims the next operation it may run ({@link NativeRunStore#claimNext}), executes it on the run's learner, which
 * it keeps in memory, and records the result. Operations of a run execute one after another in sequence order; runs of
 * other base models are left to the executors (GPU workers) that serve them.
 */
@ApplicationScoped
public class NativeOperationExecutor {

    private static final Logger LOG = Logger.getLogger(NativeOperationExecutor.class);

    private final TrainerConfig config;
    private final EmbeddedModel model;
    private final NativeRunStore store;
    private final AdapterStorage adapters;
    private final CheckpointStore checkpoints;
    private final CheckpointService checkpointService;
    private final TrainerPublisher publisher;
    private final ObjectMapper json;
    private final String executorId = "embedded-" + UUID.randomUUID();
    private final Map<String, NativeLearner> learners = new ConcurrentHashMap<>();
    private final Semaphore work = new Semaphore(0);
    private volatile boolean running;
    private Thread thread;

    public NativeOperationExecutor(TrainerConfig config, EmbeddedModel model, NativeRunStore store, AdapterStorage adapters,
            CheckpointStore checkpoints, CheckpointService checkpointService, TrainerPublisher publisher, ObjectMapper json) {
        this.config = config;
        this.model = model;
        this.store = store;
        this.adapters = adapters;
        this.checkpoints = checkpoints;
        this.checkpointService = checkpointService;
        this.publisher = publisher;
        this.json = json;
    }

    void start(@Observes StartupEvent startup) {
        if (!config.enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this::loop, "native-run-executor");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent shutdown) {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** An operation was admitted or a run closed: look for work now rather than at the next poll. */
    public void wake() {
        work.release();
    }

    /** The run was closed: its learner is dropped. */
    public void forget(String runId) {
        learners.remove(runId);
    }

    private void loop() {
        while (running) {
            try {
                Optional<NativeOperation> claimed = store.claimNext(executorId, config.baseModel()).await().indefinitely();
                if (claimed.isPresent()) {
                    LOG.debugf("Claimed native operation %s (%s) of run %s", claimed.get().operationId(), claimed.get().kind(),
                            claimed.get().runId());
                    execute(claimed.get());
                    continue;
                }
                work.tryAcquire(500, TimeUnit.MILLISECONDS);
                work.drainPermits();
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (running) {
                    LOG.warnf(e, "The native run executor could not claim an operation; trying again");
                    pause();
                }
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void execute(NativeOperation operation) {
        try {
            JsonNode body = json.readTree(operation.command());
            RunCommand command = RunCommands.parse(operation.kind(), body);
            NativeRun run = store.findRun(operation.runId()).await().indefinitely().orElseThrow();
            NativeLearner learner = learners.computeIfAbsent(run.runId(), id -> initialLearner(run));
            ObjectNode result;
            if (command instanceof RunCommand.Forward forward) {
                result = forward(operation, learner, forward);
            } else if (command instanceof RunCommand.OptimStep step) {
                result = optimStep(operation, learner, step);
            } else if (command instanceof RunCommand.SaveWeightsForSampler save) {
                result = saveForSampler(operation, learner, save);
            } else if (command instanceof RunCommand.SaveState save) {
                result = saveState(operation, run, learner, save);
            } else {
                result = loadState(operation, run, (RunCommand.LoadState) command);
            }
            store.finish(operation, NativeOperation.SUCCEEDED, json.writeValueAsString(result), null, null).await().indefinitely();
        } catch (NativeLearner.OperationCancelledException cancelled) {
            store.finish(operation, NativeOperation.CANCELLED, null, null, null).await().indefinitely();
        } catch (OperationFailure failure) {
            LOG.infof("Native operation %s (%s) of run %s failed: %s", operation.operationId(), operation.kind(), operation.runId(),
                    failure.getMessage());
            store.finish(operation, NativeOperation.FAILED, null, failure.code, failure.getMessage()).await().indefinitely();
        } catch (NativeLearner.InvalidBatchException invalid) {
            store.finish(operation, NativeOperation.FAILED, null, "invalid_batch", invalid.getMessage()).await().indefinitely();
        } catch (IOException | RuntimeException e) {
            LOG.errorf(e, "Native operation %s (%s) of run %s failed", operation.operationId(), operation.kind(), operation.runId());
            store.finish(operation, NativeOperation.FAILED, null, "internal_error",
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()).await().indefinitely();
        }
    }

    /** The learner a run starts with: its initial state when it names one, else the identity adapter of its rank and targets. */
    private NativeLearner initialLearner(NativeRun run) {
        try {
            if (run.initialState() != null) {
                JsonNode initial = json.readTree(run.initialState());
                return restore(run, initial.path("source").path("checkpoint_id").asText(), initial.path("restore_optimizer").asBoolean(false));
            }
            JsonNode spec = json.readTree(run.spec());
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private NativeLearner restore(NativeRun run, String checkpointId, boolean restoreOptimizer) {
        SavedLearnerState state = store.findState(checkpointId).await().indefinitely()
                .filter(found -> found.owner().equals(run.owner()))
                .orElseThrow(() -> new OperationFailure("checkpoint_not_found", "No saved state '" + checkpointId + "' of this caller"));
        LoraAdapter adapter = adapters.load(state.adapterUri()).await().indefinitely();
        if (!restoreOptimizer) {
            return NativeLearner.restored(model.trainableModel(), adapter, null, null, 0);
        }
        return NativeLearner.restored(model.trainableModel(), adapter, adapters.load(state.firstMomentUri()).await().indefinitely(),
                adapters.load(state.secondMomentUri()).await().indefinitely(), state.optimizerSteps());
    }

    private ObjectNode forward(NativeOperation operation, NativeLearner learner, RunCommand.Forward command) {
        long started = System.nanoTime();
        NativeLearner.ForwardOutcome outcome = learner.forward(command, () -> cancelRequested(operation));
        if (cancelRequested(operation)) {
            throw new NativeLearner.OperationCancelledException();
        }
        if (command.backward() && outcome.activeTokens() > 0) {
            learner.accumulate(outcome, operation.operationId());
        }
        ObjectNode result = result(operation);
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
        return result;
    }

    private ObjectNode optimStep(NativeOperation operation, NativeLearner learner, RunCommand.OptimStep command) {
        List<String> contributions = learner.contributions();
        if (contributions.isEmpty()) {
            throw new OperationFailure("no_gradient", "optim_step needs a forward_backward with loss-bearing tokens since the last step");
        }
        if (cancelRequested(operation)) {
            throw new NativeLearner.OperationCancelledException();
        }
        // The factor the embedded trainer applies to every job's rate (training.trainer.learning-rate-multiplier).
        double learningRate = command.learningRate() * config.learningRateMultiplier();
        double gradNorm = learner.step(command, learningRate);
        long version = operation.reservedOutputLearnerVersion();
        ObjectNode result = result(operation);
        result.putObject("metrics").put("grad_norm", gradNorm).put("learning_rate", learningRate);
        ArrayNode ids = result.putArray("contributing_operation_ids");
        contributions.forEach(ids::add);
        result.put("learner_version", version);
        result.set("checkpoint", checkpoint(operation.runId() + "@v" + version, version));
        return result;
    }

    private ObjectNode saveForSampler(NativeOperation operation, NativeLearner learner, RunCommand.SaveWeightsForSampler command) {
        Model served = store.model(command.modelId()).await().indefinitely()
                .orElseThrow(() -> new OperationFailure("model_not_found", "Model '" + command.modelAlias() + "' was deleted"));
        String artifactUri = adapters.save(learner.adapter()).await().indefinitely();
        int step = checkpoints.latest(store.pool(), served.id()).await().indefinitely().map(CheckpointRef::step).orElse(0) + 1;
        CheckpointSaved saved = new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, served.id().toString(), null, served.entity(),
                served.project(), served.name(), served.baseModel(), step, artifactUri,
                Map.of("native/learner_version", (double) operation.learnerParentVersion()), Instant.now());
        // Registered here, so the training API and the gateway's serving lookup know the step when the operation succeeds;
        // announced on training.checkpoints for the gateways (the consumer finds it registered already).
        checkpointService.register(served.id(), saved).await().indefinitely();
        publisher.checkpoint(saved);
        ObjectNode result = result(operation);
        result.putObject("metrics").put("step", step);
        String servedName = "wandb-artifact:///" + served.entity() + "/" + served.project() + "/" + served.name() + ":step" + step;
        result.set("checkpoint", checkpoint(servedName, operation.learnerParentVersion()));
        result.put("learner_version", operation.learnerParentVersion());
        result.put("target", command.target());
        result.put("model_alias", command.modelAlias());
        result.put("generation_id", "step" + step);
        return result;
    }

    private ObjectNode saveState(NativeOperation operation, NativeRun run, NativeLearner learner, RunCommand.SaveState command) {
        String adapterUri = adapters.save(learner.adapter()).await().indefinitely();
        String firstMomentUri = adapters.save(learner.firstMoment()).await().indefinitely();
        String secondMomentUri = adapters.save(learner.secondMoment()).await().indefinitely();
        SavedLearnerState state = new SavedLearnerState("ckpt_" + UUID.randomUUID().toString().replace("-", ""), run.runId(), run.owner(),
                command.checkpointName(), operation.learnerParentVersion(), adapterUri, firstMomentUri, secondMomentUri,
                learner.optimizerSteps());
        String checkpointId = store.saveState(state, command.overwrite()).await().indefinitely()
                .orElseThrow(() -> new OperationFailure("checkpoint_exists", "The run has a state named '" + command.checkpointName()
                        + "'; send overwrite=true to replace it"));
        ObjectNode result = result(operation);
        result.putObject("metrics").put("optimizer_steps", learner.optimizerSteps());
        result.set("checkpoint", checkpoint(checkpointId, operation.learnerParentVersion()));
        result.putNull("archive");
        return result;
    }

    private ObjectNode loadState(NativeOperation operation, NativeRun run, RunCommand.LoadState command) {
        NativeLearner loaded = restore(run, command.checkpointId(), command.restoreOptimizer());
        if (cancelRequested(operation)) {
            throw new NativeLearner.OperationCancelledException();
        }
        learners.put(run.runId(), loaded);
        ObjectNode result = result(operation);
        result.putObject("metrics");
        result.set("checkpoint", checkpoint(command.checkpointId(), operation.reservedOutputLearnerVersion()));
        result.put("optimizer_restored", command.restoreOptimizer());
        return result;
    }

    private boolean cancelRequested(NativeOperation operation) {
        return store.cancelRequested(operation.operationId()).await().indefinitely();
    }

    private ObjectNode result(NativeOperation operation) {
        ObjectNode result = json.createObjectNode();
        result.put("operation_id", operation.operationId());
        result.put("kind", operation.kind());
        return result;
    }

    private ObjectNode checkpoint(String checkpointId, long learnerVersion) {
        ObjectNode checkpoint = json.createObjectNode();
        checkpoint.put("checkpoint_id", checkpointId);
        checkpoint.put("learner_version", learnerVersion);
        return checkpoint;
    }

    /** An operation that cannot run as asked: it fails with {@code code}, the message goes to the log and the operation's record. */
    static final class OperationFailure extends RuntimeException {
        private final String code;

        OperationFailure(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
