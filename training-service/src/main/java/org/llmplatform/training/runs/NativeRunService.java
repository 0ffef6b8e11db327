package org.llmplatform.training.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.llmplatform.llama.lora.LoraTarget;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.model.events.LearnerStateRef;
import org.llmplatform.model.events.NativeOperationRequested;
import org.llmplatform.model.events.TrainingJobControl;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.training.config.TrainingConfig;
import org.llmplatform.training.outbound.OutboundMessages;
import org.llmplatform.training.service.ModelService;
import org.llmplatform.training.store.Model;

/**
 * The native training API (ART's {@code TrainingRuns}): resolves a run for a caller (the same request id or open run
 * name gives the same run), admits its commands strictly in sequence order, one operation each (a repeated request id
 * with the same content gives the same operation), and cancels or reads them. Admitted operations go to the executors
 * on {@code training.runs.operations} ({@link NativeOperationExecutor} for the embedded base model, GPU workers for
 * others), whose events {@link NativeRunEvents} applies.
 */
@ApplicationScoped
public class NativeRunService {

    private static final Set<String> TARGET_MODULES = Stream.of(LoraTarget.values()).map(LoraTarget::module).collect(Collectors.toSet());
    private static final Set<String> TRANSITIONS = Set.of("optim_step", "load_state");

    private final NativeRunStore store;
    private final BlobStore blobs;
    private final Outbox outbox;
    private final OutboundMessages messages;
    private final ModelService models;
    private final CurrentPrincipal caller;
    private final TrainingConfig config;
    private final ObjectMapper json;

    public NativeRunService(NativeRunStore store, BlobStore blobs, Outbox outbox, OutboundMessages messages, ModelService models,
            CurrentPrincipal caller, TrainingConfig config, ObjectMapper json) {
        this.store = store;
        this.blobs = blobs;
        this.outbox = outbox;
        this.messages = messages;
        this.models = models;
        this.caller = caller;
        this.config = config;
        this.json = json;
    }

    public Uni<NativeRun> resolve(JsonNode body) {
        List<ValidationIssue> issues = new ArrayList<>();
        if (body == null || !body.isObject()) {
            throw ApiException.invalidField("model_attributes_type", List.of("body"), "Input should be an object", null);
        }
        String requestId = text(issues, body, "request_id", List.of("body"), true);
        String runName = text(issues, body, "run_name", List.of("body"), false);
        JsonNode spec = body.get("spec");
        if (spec == null || !spec.isObject()) {
            issues.add(new ValidationIssue("missing", List.of("body", "spec"), "Field required", null));
        } else {
            checkSpec(issues, spec);
        }
        JsonNode initialState = body.get("initial_state");
        String initialCheckpoint = null;
        if (initialState != null && !initialState.isNull()) {
            JsonNode source = initialState.path("source");
            if (!"service_checkpoint".equals(source.path("kind").asText())) {
                issues.add(new ValidationIssue("literal_error", List.of("body", "initial_state", "source", "kind"),
                        "Input should be 'service_checkpoint': this service keeps states itself and does not read W&B artifacts",
                        source.path("kind").asText(null)));
            } else {
                initialCheckpoint = text(issues, source, "checkpoint_id", List.of("body", "initial_state", "source"), true);
            }
        }
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
        String owner = owner();
        NativeRun requested = new NativeRun("run_" + UUID.randomUUID().toString().replace("-", ""), owner, requestId, runName, spec.toString(),
                initialState == null || initialState.isNull() ? null : initialState.toString(), NativeRun.OPEN, 0, 0, 0);
        Uni<Void> initialChecked = initialCheckpoint == null ? Uni.createFrom().voidItem() : requireState(initialCheckpoint, owner);
        return initialChecked.chain(() -> store.pool().withTransaction(transaction -> store.findResolved(transaction, owner, requestId, runName)
                .chain(found -> found.isPresent() ? Uni.createFrom().item(found.get())
                        : store.insertRun(transaction, requested).chain(inserted -> inserted ? Uni.createFrom().item(requested)
                                : store.findResolved(transaction, owner, requestId, runName).map(Optional::orElseThrow)))))
                .map(run -> {
                    if (!sameJson(run.spec(), requested.spec()) || (runName != null && !runName.equals(run.runName()))) {
                        throw ApiException.conflict("Run '" + run.runId() + "' was resolved with spec " + run.spec() + " and name "
                                + run.runName() + ", not " + requested.spec() + " and " + runName + "; use a new request_id or run_name");
                    }
                    return run;
                });
    }

    private void checkSpec(List<ValidationIssue> issues, JsonNode spec) {
        List<Object> at = List.of("body", "spec");
        String baseModel = text(issues, spec, "base_model", at, true);
        if (baseModel != null && !config.baseModels().contains(baseModel)) {
            issues.add(new ValidationIssue("literal_error", List.of("body", "spec", "base_model"),
                    "Input should be one of " + config.baseModels() + " (the base models this deployment can train)", baseModel));
        }
        JsonNode rank = spec.get("lora_rank");
        if (rank == null || !rank.isIntegralNumber() || rank.asInt() < 1 || rank.asInt() > 64) {
            issues.add(new ValidationIssue(rank == null ? "missing" : "int_type", List.of("body", "spec", "lora_rank"),
                    "Input should be an integer from 1 to 64", rank == null ? null : rank.toString()));
        }
        JsonNode modules = spec.get("lora_target_modules");
        if (modules == null || !modules.isArray() || modules.isEmpty()) {
            issues.add(new ValidationIssue("missing", List.of("body", "spec", "lora_target_modules"), "Field required: at least one module", null));
        } else {
            for (int i = 0; i < modules.size(); i++) {
                if (!TARGET_MODULES.contains(modules.get(i).asText())) {
                    issues.add(new ValidationIssue("literal_error", List.of("body", "spec", "lora_target_modules", i),
                            "Input should be one of " + TARGET_MODULES.stream().sorted().toList(), modules.get(i).toString()));
                }
            }
        }
        JsonNode seed = spec.get("seed");
        if (seed != null && !seed.isNull() && !seed.isIntegralNumber()) {
            issues.add(new ValidationIssue("int_type", List.of("body", "spec", "seed"), "Input should be an integer or null", seed.toString()));
        }
    }

    private Uni<Void> requireState(String checkpointId, String owner) {
        return store.findState(store.pool(), checkpointId).map(found -> {
            if (found.isEmpty() || !caller.get().mayAccessEntity(found.get().owner())) {
                throw ApiException.invalidField("value_error", List.of("body", "initial_state", "source", "checkpoint_id"),
                        "No saved state '" + checkpointId + "' of this caller", checkpointId);
            }
            return null;
        });
    }

    public Uni<NativeRun> find(String runId) {
        Principal principal = caller.get();
        return store.findRun(runId).map(found -> found.filter(run -> principal.mayAccessEntity(run.owner()))
                .orElseThrow(() -> ApiException.notFound("Training run '" + runId + "' not found")));
    }

    /**
     * Closes the run: its waiting operations are cancelled, and its executor is told to drop its learner. Closing a run
     * that is not open changes nothing.
     */
    public Uni<NativeRun> close(String runId) {
        return find(runId)
                .chain(run -> !run.open() ? Uni.createFrom().voidItem() : store.pool().withTransaction(transaction -> store.close(transaction, runId)
                        .chain(() -> outbox.add(transaction, List.of(messages.nativeControl(TrainingJobControl.closeRun(runId, "closed by the caller")))))))
                .invoke(outbox::flush)
                .chain(() -> find(runId));
    }

    public Uni<NativeOperation> submit(String runId, String kind, Supplier<JsonNode> readBody) {
        if (!RunCommands.KINDS.contains(kind)) {
            throw ApiException.notFound("Unknown run command '" + kind + "': one of " + RunCommands.KINDS);
        }
        // The run is looked up (a stranger's is not found) before its body is read: access first, then validation.
        return find(runId).chain(found -> {
            JsonNode body = readBody.get();
            RunCommands.Envelope envelope = RunCommands.envelope(body);
            // The served model is this service's to record (below), never the caller's to name.
            ((ObjectNode) body).remove(RunCommands.SERVED_MODEL_ID);
            RunCommand command = RunCommands.parse(kind, body);
            String digest = digest(kind, body);
            Uni<Model> served = command instanceof RunCommand.SaveWeightsForSampler save ? servedModel(found, save)
                    : Uni.createFrom().nullItem();
            return served.chain(model -> {
                ObjectNode stored = body.deepCopy();
                if (model != null) {
                    stored.put(RunCommands.SERVED_MODEL_ID, model.id().toString());
                }
                return store.pool().withTransaction(transaction -> store.lockRun(transaction, runId).chain(locked -> {
                    NativeRun run = locked.orElseThrow();
                    return store.findOperationByRequest(transaction, runId, envelope.requestId()).chain(prior -> {
                        if (prior.isPresent()) {
                            if (!prior.get().commandDigest().equals(digest)) {
                                throw ApiException.conflict("request_id '" + envelope.requestId() + "' was used for another command");
                            }
                            return Uni.createFrom().item(prior.get());
                        }
                        if (!run.open()) {
                            throw ApiException.conflict("Training run '" + runId + "' is " + run.status());
                        }
                        if (envelope.sequenceId() != run.nextSequenceId()) {
                            throw ApiException.conflict("Expected sequence_id " + run.nextSequenceId() + ", got " + envelope.sequenceId());
                        }
                        long parent = run.projectedLearnerVersion();
                        Long reserved = TRANSITIONS.contains(kind) ? parent + 1 : null;
                        NativeOperation admitted = new NativeOperation("op_" + UUID.randomUUID().toString().replace("-", ""), runId,
                                envelope.requestId(), envelope.sequenceId(), kind, stored.toString(), digest, NativeOperation.ADMITTED, parent,
                                reserved, false, 1, null, null, null, null, null, null, null, 0);
                        return requested(transaction, run, admitted, command)
                                .chain(record -> store.admit(transaction, admitted)
                                        .call(() -> outbox.add(transaction, List.of(messages.operationRequested(record)))));
                    });
                }));
            });
        }).invoke(outbox::flush);
    }

    /**
     * The operation as executors receive it (docs/training-service.md#native-runs-over-kafka): the command by claim check,
     * the learner to start from when it is the run's first, the saved state a load_state names.
     */
    private Uni<NativeOperationRequested> requested(SqlClient transaction, NativeRun run, NativeOperation operation, RunCommand command) {
        JsonNode spec = readTree(run.spec());
        Uni<LearnerStateRef> initial = Uni.createFrom().nullItem();
        if (operation.sequenceId() == 0 && run.initialState() != null) {
            JsonNode state = readTree(run.initialState());
            initial = stateRef(transaction, run, state.path("source").path("checkpoint_id").asText(), state.path("restore_optimizer").asBoolean(false));
        }
        Uni<LearnerStateRef> loaded = command instanceof RunCommand.LoadState load
                ? stateRef(transaction, run, load.checkpointId(), load.restoreOptimizer()) : Uni.createFrom().nullItem();
        Uni<BlobReference> stored = blobs.put(operation.command().getBytes(StandardCharsets.UTF_8));
        return Uni.combine().all().unis(initial, loaded, stored).with((initialState, loadState, commandBlob) ->
                new NativeOperationRequested(NativeOperationRequested.SCHEMA_VERSION, operation.operationId(), run.runId(), operation.sequenceId(),
                        operation.kind(), spec.path("base_model").asText(), spec, initialState, operation.learnerParentVersion(),
                        operation.reservedOutputLearnerVersion(), commandBlob, loadState, Instant.now()));
    }

    /** A saved state of the run's owner as blobs, without the optimizer unless it is restored; null when there is none. */
    private Uni<LearnerStateRef> stateRef(SqlClient client, NativeRun run, String checkpointId, boolean restoreOptimizer) {
        return store.findState(client, checkpointId).map(found -> found.filter(state -> state.owner().equals(run.owner()))
                .map(state -> restoreOptimizer
                        ? new LearnerStateRef(state.checkpointId(), state.adapterUri(), state.firstMomentUri(), state.secondMomentUri(),
                                state.optimizerSteps())
                        : new LearnerStateRef(state.checkpointId(), state.adapterUri(), null, null, null))
                .orElse(null));
    }

    /**
     * The model a sampler save publishes to: {@code publication.model_alias} is a model id, {@code entity/project/name},
     * or the name of one of the run owner's models (ART sends the model's name); it must share the run's base model.
     */
    private Uni<Model> servedModel(NativeRun run, RunCommand.SaveWeightsForSampler save) {
        String alias = save.modelAlias();
        String[] parts = alias.split("/");
        Uni<Model> found;
        if (parts.length == 3) {
            found = models.findAccessibleByName(parts[0], parts[1], parts[2]);
        } else if (isUuid(alias)) {
            found = models.findAccessible(alias);
        } else {
            found = store.modelsNamed(run.owner(), alias).map(named -> {
                if (named.size() != 1) {
                    throw ApiException.invalidField("value_error", List.of("body", "publication", "model_alias"), named.isEmpty()
                            ? "No model named '" + alias + "': register it with POST /v1/preview/models first"
                            : "Several models are named '" + alias + "': send entity/project/name or the model id", alias);
                }
                return named.get(0);
            });
        }
        return found.map(model -> {
            String baseModel = readTree(run.spec()).path("base_model").asText();
            if (!model.baseModel().equals(baseModel)) {
                throw ApiException.invalidField("value_error", List.of("body", "publication", "model_alias"), "Model '" + alias
                        + "' is trained on " + model.baseModel() + ", the run on " + baseModel, alias);
            }
            return model;
        });
    }

    public Uni<NativeOperation> operation(String runId, String operationId) {
        return find(runId).chain(() -> store.findOperation(runId, operationId))
                .map(found -> found.orElseThrow(() -> ApiException.notFound("Operation '" + operationId + "' of run '" + runId + "' not found")));
    }

    /** Cancels the operation; its executor is told, in case it runs it. An ended operation stays as it is. */
    public Uni<NativeOperation> cancel(String runId, String operationId) {
        return operation(runId, operationId)
                .chain(found -> found.terminal() ? Uni.createFrom().voidItem() : store.pool().withTransaction(transaction -> store
                        .requestCancel(transaction, runId, operationId)
                        .chain(() -> outbox.add(transaction, List.of(messages.nativeControl(TrainingJobControl.cancelOperation(runId, operationId)))))))
                .invoke(outbox::flush)
                .chain(() -> operation(runId, operationId));
    }

    private String owner() {
        String userName = caller.get().userName();
        if (Principal.BOOTSTRAP_ADMIN.equals(userName)) {
            throw ApiException.forbidden("The bootstrap administrator key has no entity to own a training run");
        }
        return userName;
    }

    private static String text(List<ValidationIssue> issues, JsonNode parent, String field, List<Object> at, boolean required) {
        JsonNode node = parent.get(field);
        List<Object> loc = new ArrayList<>(at);
        loc.add(field);
        if (node == null || node.isNull()) {
            if (required) {
                issues.add(new ValidationIssue("missing", loc, "Field required", null));
            }
            return null;
        }
        if (!node.isTextual() || node.asText().isEmpty() || node.asText().length() > 255) {
            issues.add(new ValidationIssue("string_type", loc, "Input should be a string of 1 to 255 characters", node.toString()));
            return null;
        }
        return node.asText();
    }

    private boolean sameJson(String a, String b) {
        return readTree(a).equals(readTree(b));
    }

    private JsonNode readTree(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not readable", e);
        }
    }

    private static String digest(String kind, JsonNode body) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest((kind + "\n" + body).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isUuid(String value) {
        try {
            UUID.fromString(value);
            return true;
        } catch (IllegalArgumentException notOne) {
            return false;
        }
    }
}
