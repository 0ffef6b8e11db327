package org.llmplatform.training.service;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.outbox.Outbox;
import org.llmplatform.training.config.TrainingConfig;
import org.llmplatform.training.outbound.OutboundMessages;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.JobStore;
import org.llmplatform.training.store.Model;
import org.llmplatform.training.store.ModelRegistration;
import org.llmplatform.training.store.ModelSummary;
import org.llmplatform.training.store.ModelStore;

/**
 * Registers models by name within a project (idempotently when asked) and finds them by id for a
 * caller, who sees only the models of entities it belongs to. Registering a model registers its step 0
 * (the untrained identity adapter) and announces it on {@code artifact.events}, like every checkpoint.
 */
@ApplicationScoped
public class ModelService {

    /** Entity, project and model names end up in artifact names and inference names, so they stay plain. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

    private final Pool pool;
    private final ModelStore models;
    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final JobLifecycle lifecycle;
    private final Outbox outbox;
    private final OutboundMessages messages;
    private final CurrentPrincipal caller;
    private final TrainingConfig config;

    public ModelService(Pool pool, ModelStore models, CheckpointStore checkpoints, JobStore jobs, JobLifecycle lifecycle, Outbox outbox,
            OutboundMessages messages, CurrentPrincipal caller, TrainingConfig config) {
        this.pool = pool;
        this.models = models;
        this.checkpoints = checkpoints;
        this.jobs = jobs;
        this.lifecycle = lifecycle;
        this.outbox = outbox;
        this.messages = messages;
        this.caller = caller;
        this.config = config;
    }

    public List<String> baseModels() {
        return config.baseModels();
    }

    public Uni<Model> register(ModelCreate request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        List<ValidationIssue> issues = new ArrayList<>();
        checkName(issues, "entity", request.entity(), false, "body");
        checkName(issues, "project", request.project(), true, "body");
        checkName(issues, "name", request.name(), true, "body");
        checkBaseModel(issues, request.baseModel());
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
        String entity = request.entity() != null ? request.entity() : defaultEntity("body");
        caller.requireEntity(entity);
        Model requested = new Model(UUID.randomUUID(), entity, request.project(), request.name(), request.baseModel());
        boolean returnExisting = Boolean.TRUE.equals(request.returnExisting());
        String author = caller.get().userName();
        return pool.withTransaction(transaction -> register(transaction, requested, author))
                .invoke(registration -> {
                    if (registration.created()) {
                        outbox.flush();
                    }
                })
                .map(registration -> accept(registration, requested, returnExisting));
    }

    /**
     * Deletes the model with its checkpoints; its unfinished jobs are cancelled first (their trainers
     * told so). A repeated delete of the same model answers as the first did, with nothing left to delete.
     */
    public Uni<ModelDeletion> delete(String modelId) {
        Principal principal = caller.get();
        return findAccessible(modelId)
                .chain(model -> pool.withTransaction(transaction -> delete(transaction, model)).invoke(outbox::flush))
                .onFailure(ApiException.class).recoverWithUni(notFound -> deletedBefore(modelId, principal, (ApiException) notFound));
    }

    private Uni<ModelDeletion> deletedBefore(String modelId, Principal principal, ApiException notFound) {
        Optional<UUID> id = parseId(modelId);
        if (id.isEmpty()) {
            return Uni.createFrom().failure(notFound);
        }
        return models.deletedEntity(id.get()).map(entity -> {
            if (entity.isPresent() && principal.mayAccessEntity(entity.get())) {
                return new ModelDeletion(id.get(), 0, false);
            }
            throw notFound;
        });
    }

    private Uni<ModelDeletion> delete(SqlClient transaction, Model model) {
        return models.lock(transaction, model.id())
                .chain(() -> jobs.unfinished(transaction, model.id()))
                .chain(unfinished -> lifecycle.cancelAll(transaction, model, unfinished, "The model was deleted"))
                .chain(() -> checkpoints.count(transaction, model.id()))
                .chain(count -> models.delete(transaction, model).replaceWith(new ModelDeletion(model.id(), count, false)));
    }

    private Uni<ModelRegistration> register(SqlClient transaction, Model requested, String author) {
        return models.insert(transaction, requested).chain(created -> created
                ? checkpoints.save(transaction, requested.id(), 0, null, null, Map.of())
                        .chain(() -> outbox.add(transaction, Stream.concat(messages.checkpointLinked(requested, 0, author).stream(),
                                Stream.of(messages.baseCheckpoint(requested))).toList()))
                        .replaceWith(new ModelRegistration(requested, true))
                : models.findByName(transaction, requested.entity(), requested.project(), requested.name())
                        .map(existing -> new ModelRegistration(existing.orElseThrow(
                                () -> new IllegalStateException("model " + requested.name() + " vanished while being registered")), false)));
    }

    /**
     * The models of {@code entity/project} (the caller's own entity when none is named) in the order they were
     * registered, each with its latest step. An entity the caller does not belong to is a 403, as for registering.
     */
    public Uni<Page<ModelSummary>> listInProject(String entity, String project, PageRequest page) {
        List<ValidationIssue> issues = new ArrayList<>();
        checkName(issues, "entity", entity, false, "query");
        checkName(issues, "project", project, true, "query");
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
        String owner = entity != null ? entity : defaultEntity("query");
        caller.requireEntity(owner);
        Uni<Void> cursorChecked = page.after().isEmpty() ? Uni.createFrom().voidItem() : models.findById(page.after().get())
                .invoke(found -> {
                    if (found.filter(model -> model.entity().equals(owner) && model.project().equals(project)).isEmpty()) {
                        throw ApiException.invalidField("value_error", List.of("query", "after"), "Value error, '" + page.after().get()
                                + "' is not a model of project '" + owner + "/" + project + "'", page.after().get().toString());
                    }
                }).replaceWithVoid();
        return cursorChecked.chain(() -> models.listInProject(owner, project, page.after(), page.descending(), page.limit() + 1))
                .map(fetched -> Page.of(fetched, page.limit()));
    }

    /** The model with this id, if it exists and the caller may see it; otherwise 404 (existence is not revealed). */
    public Uni<Model> findAccessible(String modelId) {
        Principal principal = caller.get();
        Optional<UUID> id = parseId(modelId);
        if (id.isEmpty()) {
            return Uni.createFrom().failure(notFound(modelId));
        }
        return models.findById(id.get()).map(found -> found
                .filter(model -> principal.mayAccessEntity(model.entity()))
                .orElseThrow(() -> notFound(modelId)));
    }

    /** A 404 for a model name in an entity the caller cannot see, checked before anything else the request holds. */
    public void requireVisibleEntity(String entity, String project, String name) {
        if (!caller.get().mayAccessEntity(entity)) {
            throw notFound(entity + "/" + project + "/" + name);
        }
    }

    /** The model named {@code entity/project/name}, if the caller may see it; otherwise 404 (existence is not revealed). */
    public Uni<Model> findAccessibleByName(String entity, String project, String name) {
        String fullName = entity + "/" + project + "/" + name;
        if (!caller.get().mayAccessEntity(entity)) {
            return Uni.createFrom().failure(notFound(fullName));
        }
        return models.findByName(pool, entity, project, name).map(found -> found.orElseThrow(() -> notFound(fullName)));
    }

    private static Model accept(ModelRegistration registration, Model requested, boolean returnExisting) {
        Model existing = registration.model();
        if (registration.created()) {
            return existing;
        }
        String fullName = existing.entity() + "/" + existing.project() + "/" + existing.name();
        if (!returnExisting) {
            throw ApiException.conflict("Model '" + fullName + "' already exists; send return_existing=true to get it");
        }
        if (!existing.baseModel().equals(requested.baseModel())) {
            throw ApiException.conflict("Model '" + fullName + "' already exists with base_model '" + existing.baseModel()
                    + "', not '" + requested.baseModel() + "'");
        }
        return existing;
    }

    private String defaultEntity(String location) {
        Principal principal = caller.get();
        if (Principal.BOOTSTRAP_ADMIN.equals(principal.userName())) {
            throw ApiException.invalidField("missing", List.of(location, "entity"),
                    "Field required: the bootstrap administrator key has no entity of its own", null);
        }
        return principal.userName();
    }

    private static void checkName(List<ValidationIssue> issues, String field, String value, boolean required, String location) {
        if (value == null) {
            if (required) {
                issues.add(new ValidationIssue("missing", List.of(location, field), "Field required", null));
            }
        } else if (!NAME.matcher(value).matches()) {
            issues.add(new ValidationIssue("string_pattern_mismatch", List.of(location, field),
                    "String should match pattern '" + NAME.pattern() + "'", value));
        }
    }

    private void checkBaseModel(List<ValidationIssue> issues, String baseModel) {
        List<String> trainable = config.baseModels();
        if (baseModel == null) {
            issues.add(new ValidationIssue("missing", List.of("body", "base_model"), "Field required", null));
        } else if (!trainable.contains(baseModel)) {
            issues.add(new ValidationIssue("literal_error", List.of("body", "base_model"),
                    "Input should be " + quotedChoices(trainable) + " (the base models this deployment can train)", baseModel));
        }
    }

    private static String quotedChoices(List<String> choices) {
        List<String> quoted = choices.stream().map(choice -> "'" + choice + "'").collect(Collectors.toList());
        if (quoted.size() == 1) {
            return quoted.get(0);
        }
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
    }

    private static Optional<UUID> parseId(String modelId) {
        try {
            return Optional.of(UUID.fromString(modelId));
        } catch (IllegalArgumentException notAnId) {
            return Optional.empty();
        }
    }

    private static ApiException notFound(String modelId) {
        return ApiException.notFound("Model '" + modelId + "' not found");
    }
}
