package org.llmplatform.training.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.model.events.LearnerStateRef;
import org.llmplatform.model.events.NativeOperationEvent;
import org.llmplatform.model.events.TrainingJobControl;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.training.outbound.OutboundMessages;
import org.llmplatform.training.service.CheckpointService;
import org.llmplatform.training.store.CheckpointRef;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Model;
import org.llmplatform.training.store.ModelStore;

/**
 * Applies what executors report on {@code training.runs.events} to the operations (docs/training-service.md#native-runs-over-kafka),
 * one event per transaction with the operation locked. An event about an ended operation, or one not above the last
 * number its executor sent, is dropped (delivery is at least once). A succeeded sampler save is registered here as the
 * served model's next step and announced to the gateways; a succeeded save_state becomes a saved state. An operation
 * failed {@code learner_lost}, or whose lease ran out ({@link #expire}), fails its run.
 */
@ApplicationScoped
public class NativeRunEvents {

    private static final Logger LOG = Logger.getLogger(NativeRunEvents.class);

    private final NativeRunStore store;
    private final ModelStore models;
    private final CheckpointStore checkpoints;
    private final CheckpointService checkpointService;
    private final Outbox outbox;
    private final OutboundMessages messages;
    private final ObjectMapper json;

    public NativeRunEvents(NativeRunStore store, ModelStore models, CheckpointStore checkpoints, CheckpointService checkpointService,
            Outbox outbox, OutboundMessages messages, ObjectMapper json) {
        this.store = store;
        this.models = models;
        this.checkpoints = checkpoints;
        this.checkpointService = checkpointService;
        this.outbox = outbox;
        this.messages = messages;
        this.json = json;
    }

    public Uni<Void> apply(NativeOperationEvent event) {
        return store.pool().withTransaction(transaction -> store.lockOperation(transaction, event.operationId()).chain(found -> {
            if (found.isEmpty() || found.get().terminal() || !found.get().runId().equals(event.runId())
                    || (event.executor().equals(found.get().executor()) && event.seq() <= found.get().executorSeq())) {
                return Uni.createFrom().voidItem();
            }
            NativeOperation operation = found.get();
            return switch (event.type()) {
                case NativeOperationEvent.TYPE_RUNNING -> store.markRunning(transaction, operation, event.executor(), event.seq());
                case NativeOperationEvent.TYPE_HEARTBEAT -> store.heartbeat(transaction, operation.operationId(), event.executor(), event.seq());
                case NativeOperationEvent.TYPE_SUCCEEDED -> succeeded(transaction, operation, event);
                case NativeOperationEvent.TYPE_CANCELLED -> store.finish(transaction, operation, NativeOperation.CANCELLED, null, null, null);
                default -> failed(transaction, operation, event.errorCode() == null ? "internal_error" : event.errorCode(),
                        event.errorMessage());
            };
        })).invoke(outbox::flush);
    }

    /** Fails an operation whose lease ran out, and its run, if the lease still has run out with the operation locked. */
    public Uni<Void> expire(String operationId, Duration heartbeatLease, Duration pickupTimeout) {
        return store.pool().withTransaction(transaction -> store.lockOperation(transaction, operationId).chain(found -> found.isEmpty()
                ? Uni.createFrom().voidItem()
                : store.leaseExpired(transaction, operationId, heartbeatLease, pickupTimeout).chain(expired -> {
                    if (!expired) {
                        return Uni.createFrom().voidItem();
                    }
                    String reason = NativeOperation.RUNNING.equals(found.get().status())
                            ? "Its executor sent nothing for " + heartbeatLease.toSeconds() + " s and is presumed gone"
                            : "No executor started it within " + pickupTimeout.toSeconds() + " s";
                    LOG.warnf("Failing native operation %s of run %s: %s", operationId, found.get().runId(), reason);
                    return failed(transaction, found.get(), NativeOperationEvent.LEARNER_LOST, reason);
                }))).invoke(outbox::flush);
    }

    private Uni<Void> failed(SqlClient transaction, NativeOperation operation, String code, String message) {
        Uni<Void> finished = store.finish(transaction, operation, NativeOperation.FAILED, null, code, message);
        if (!NativeOperationEvent.LEARNER_LOST.equals(code)) {
            return finished;
        }
        return finished.chain(() -> store.failRun(transaction, operation.runId()))
                .chain(() -> outbox.add(transaction, List.of(messages.nativeControl(TrainingJobControl.closeRun(operation.runId(), message)))));
    }

    private Uni<Void> succeeded(SqlClient transaction, NativeOperation operation, NativeOperationEvent event) {
        ObjectNode result = event.result() != null && event.result().isObject() ? (ObjectNode) event.result().deepCopy()
                : json.createObjectNode();
        if ("save_weights_for_sampler".equals(operation.kind())) {
            return servedStep(transaction, operation, event.saved(), result);
        }
        if ("save_state".equals(operation.kind())) {
            return savedState(transaction, operation, event.saved(), result);
        }
        return store.finish(transaction, operation, NativeOperation.SUCCEEDED, result.toString(), null, null);
    }

    /** The sampler weights become the next step of the model the command names, served at once. */
    private Uni<Void> servedStep(SqlClient transaction, NativeOperation operation, LearnerStateRef saved, ObjectNode result) {
        if (saved == null || saved.adapterUri() == null) {
            return failed(transaction, operation, "internal_error", "The executor reported no saved adapter");
        }
        UUID modelId = UUID.fromString(readTree(operation.command()).path(RunCommands.SERVED_MODEL_ID).asText());
        return models.lock(transaction, modelId).chain(found -> {
            if (found.isEmpty()) {
                return failed(transaction, operation, "model_not_found", "The model to publish to was deleted");
            }
            Model served = found.get();
            return checkpoints.latest(transaction, served.id()).chain(latest -> {
                int step = latest.map(CheckpointRef::step).orElse(0) + 1;
                CheckpointSaved checkpoint = new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, served.id().toString(), null, served.entity(),
                        served.project(), served.name(), served.baseModel(), step, saved.adapterUri(),
                        Map.of("native/learner_version", (double) operation.learnerParentVersion()), Instant.now());
                result.putObject("metrics").put("step", step);
                String servedName = "wandb-artifact:///" + served.entity() + "/" + served.project() + "/" + served.name() + ":step" + step;
                result.set("checkpoint", NativeOperation.checkpointResult(servedName, operation.learnerParentVersion()));
                result.put("generation_id", "step" + step);
                return checkpointService.register(transaction, served, checkpoint)
                        .chain(() -> outbox.add(transaction, List.of(messages.checkpointSaved(checkpoint))))
                        .chain(() -> store.finish(transaction, operation, NativeOperation.SUCCEEDED, result.toString(), null, null));
            });
        });
    }

    private Uni<Void> savedState(SqlClient transaction, NativeOperation operation, LearnerStateRef saved, ObjectNode result) {
        if (saved == null || !saved.withOptimizer()) {
            return failed(transaction, operation, "internal_error", "The executor reported no saved adapter and optimizer");
        }
        JsonNode command = readTree(operation.command());
        String name = command.path("checkpoint_name").asText();
        return store.findRun(operation.runId()).chain(run -> store.saveState(transaction, new SavedLearnerState("ckpt_"
                                + UUID.randomUUID().toString().replace("-", ""), operation.runId(), run.orElseThrow().owner(), name,
                                operation.learnerParentVersion(), saved.adapterUri(), saved.firstMomentUri(), saved.secondMomentUri(),
                                saved.optimizerSteps()), command.path("overwrite").asBoolean(false)))
                .chain(checkpointId -> {
                    if (checkpointId.isEmpty()) {
                        return failed(transaction, operation, "checkpoint_exists", "The run has a state named '" + name
                                + "'; send overwrite=true to replace it");
                    }
                    result.set("checkpoint", NativeOperation.checkpointResult(checkpointId.get(), operation.learnerParentVersion()));
                    return store.finish(transaction, operation, NativeOperation.SUCCEEDED, result.toString(), null, null);
                });
    }


    private JsonNode readTree(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not readable", e);
        }
    }
}
