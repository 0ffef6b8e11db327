package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.llmplatform.automation.store.Automation;
import org.llmplatform.automation.store.AutomationStore;
import org.llmplatform.automation.store.Webhook;
import org.llmplatform.automation.store.WebhookStore;
import org.llmplatform.automation.template.PayloadTemplate;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;

/**
 * Automations: created, changed and deleted by admins of the scope's entity (registry and project admins
 * are the team's admins here), seen by its members. Everything is validated at save time: scope, event
 * type and filter (regexes compile), the webhook (same entity) and the payload template's variables.
 */
@ApplicationScoped
public class AutomationService {

    private static final int LONGEST_NAME = 255;
    private static final List<String> SCOPES = List.of("ENTITY", "PROJECT", "ARTIFACT_COLLECTION");

    private final AutomationStore store;
    private final WebhookStore webhooks;
    private final CurrentPrincipal caller;

    public AutomationService(AutomationStore store, WebhookStore webhooks, CurrentPrincipal caller) {
        this.store = store;
        this.webhooks = webhooks;
        this.caller = caller;
    }

    public Uni<Automation> create(AutomationInput input) {
        if (input == null) {
            throw ApiException.missingField("name");
        }
        Principal principal = caller.get();
        Automation.Scope scope = scope(input.scope());
        Permissions.requireManager(principal, scope.entity(), "automations");
        Automation.Event event = event(input.event());
        return validatedAction(input.action(), scope.entity()).chain(action -> store.insert(new Automation(UUID.randomUUID(),
                name(input.name()), input.description(), input.enabled() == null || input.enabled(), scope, event, action,
                principal.userName(), null, null)))
                .onFailure(AutomationStore.NameTaken.class).transform(AutomationService::conflict);
    }

    public Uni<Automation> update(UUID id, AutomationInput input) {
        Principal principal = caller.get();
        return managed(id, principal).chain(current -> {
            AutomationInput changes = input == null ? new AutomationInput(null, null, null, null, null, null) : input;
            Automation.Scope scope = changes.scope() == null ? current.scope() : scope(changes.scope());
            Permissions.requireManager(principal, scope.entity(), "automations");
            Automation.Event event = changes.event() == null ? current.event() : event(changes.event());
            AutomationInput.Action action = changes.action() == null
                    ? new AutomationInput.Action("WEBHOOK", current.action().webhookId().toString(), current.action().payloadTemplate())
                    : changes.action();
            return validatedAction(action, scope.entity()).chain(validated -> store.update(new Automation(id,
                    changes.name() == null ? current.name() : name(changes.name()),
                    changes.description() == null ? current.description() : changes.description(),
                    changes.enabled() == null ? current.enabled() : changes.enabled(),
                    scope, event, validated, current.createdBy(), null, null)))
                    .onFailure(AutomationStore.NameTaken.class).transform(AutomationService::conflict)
                    .map(updated -> updated.orElseThrow(() -> missing(id)));
        });
    }

    public Uni<Automation> find(UUID id) {
        Principal principal = caller.get();
        return store.find(id).map(found -> {
            Automation automation = found.orElseThrow(() -> missing(id));
            return Permissions.visible(principal, automation.scope().entity(), automation, missing(id).getMessage());
        });
    }

    public Uni<List<Automation>> list(String entity) {
        Permissions.requireViewer(caller.get(), entity);
        return store.list(entity);
    }

    /** The automation is looked up first: a stranger's id is a 404 with or without {@code confirm}. */
    public Uni<Void> delete(UUID id, boolean confirmed) {
        return managed(id, caller.get()).invoke(automation -> {
            if (!confirmed) {
                throw ApiException.invalidField("value_error", List.of("query", "confirm"),
                        "Deleting an automation needs confirm=true; its delivery history goes with it", null);
            }
        }).chain(automation -> store.delete(id)).replaceWithVoid();
    }

    /** The automation, when the caller may manage it: 404 when its entity is not the caller's, 403 for a member. */
    Uni<Automation> managed(UUID id, Principal principal) {
        return find(id).invoke(automation -> Permissions.requireManager(principal, automation.scope().entity(), "automations"));
    }

    private static String name(String name) {
        if (name == null || name.isBlank()) {
            throw ApiException.missingField("name");
        }
        if (name.length() > LONGEST_NAME) {
            throw ApiException.invalidField("string_too_long", List.of("body", "name"),
                    "A name has at most " + LONGEST_NAME + " characters", name);
        }
        return name;
    }

    private static Automation.Scope scope(AutomationInput.Scope scope) {
        if (scope == null || scope.type() == null) {
            throw ApiException.missingField("scope");
        }
        String type = scope.type().toUpperCase(Locale.ROOT);
        switch (type) {
            case "ENTITY" -> {
                require(scope.entity(), "entity");
                return new Automation.Scope(type, scope.entity(), null, null);
            }
            case "PROJECT", "ARTIFACT_COLLECTION" -> {
                require(scope.project(), "project");
                ProjectId project;
                try {
                    project = ProjectId.parse(scope.project());
                } catch (ApiException malformed) {
                    throw ApiException.invalidField("value_error", List.of("body", "scope", "project"),
                            "A project is written entity/project", scope.project());
                }
                if (type.equals("ARTIFACT_COLLECTION")) {
                    require(scope.collection(), "collection");
                }
                String collection = scope.collection() == null || scope.collection().isBlank() ? null : scope.collection();
                return new Automation.Scope(type, project.entity(), project.entity() + "/" + project.project(), collection);
            }
            default -> throw ApiException.invalidField("enum", List.of("body", "scope", "type"),
                    "A scope type is one of " + SCOPES, scope.type());
        }
    }

    private static Automation.Event event(AutomationInput.Event event) {
        if (event == null || event.type() == null) {
            throw ApiException.missingField("event");
        }
        String type = event.type().toUpperCase(Locale.ROOT);
        if (type.equals("LINK_MODEL")) {
            type = ArtifactEventType.LINK_ARTIFACT.name();
        }
        String chosen = type;
        if (Arrays.stream(ArtifactEventType.values()).noneMatch(known -> known.name().equals(chosen))) {
            throw ApiException.invalidField("enum", List.of("body", "event", "type"),
                    "This service supports the event types " + Arrays.toString(ArtifactEventType.values()), event.type());
        }
        JsonNode filter = event.filter() == null || event.filter().isNull()
                ? JsonNodeFactory.instance.objectNode()
                : EventFilter.unwrap(event.filter());
        EventFilter.validate(filter, List.of("body", "event", "filter"));
        if (type.equals(ArtifactEventType.ADD_ARTIFACT_ALIAS.name()) && !EventFilter.mentions(filter, "alias")) {
            throw ApiException.invalidField("value_error", List.of("body", "event", "filter"),
                    "ADD_ARTIFACT_ALIAS needs an alias filter, e.g. {\"alias\": {\"$regex\": \"^prod\"}}", filter.toString());
        }
        return new Automation.Event(type, filter);
    }

    private Uni<Automation.Action> validatedAction(AutomationInput.Action action, String entity) {
        if (action == null) {
            throw ApiException.missingField("action");
        }
        if (action.type() != null && !List.of("WEBHOOK", "GENERIC_WEBHOOK").contains(action.type().toUpperCase(Locale.ROOT))) {
            throw ApiException.invalidField("enum", List.of("body", "action", "type"),
                    "The only action type is WEBHOOK", action.type());
        }
        UUID webhookId = webhookId(action.webhookId());
        return webhooks.find(webhookId).map(found -> {
            Webhook webhook = found.filter(candidate -> candidate.entity().equals(entity)).orElseThrow(() ->
                    ApiException.invalidField("value_error", List.of("body", "action", "webhook_id"),
                            "No webhook with id '" + webhookId + "' in '" + entity + "'", webhookId.toString()));
            return new Automation.Action("WEBHOOK", webhook.id(), PayloadTemplate.validated(action.payloadTemplate(),
                    WebhookService.secretVariables(webhook), List.of("body", "action", "payload_template")));
        });
    }

    private static UUID webhookId(String id) {
        require(id, "webhook_id");
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException notUuid) {
            throw ApiException.invalidField("uuid_parsing", List.of("body", "action", "webhook_id"),
                    "Input should be a valid UUID", id);
        }
    }

    private static void require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw ApiException.invalidField("missing", List.of("body", field), "Field required", null);
        }
    }

    static ApiException missing(UUID id) {
        return ApiException.notFound("No automation with id '" + id + "'");
    }

    /** A name another automation of the scope has: the client's conflict, answered 409. */
    private static ApiException conflict(Throwable nameTaken) {
        return ApiException.conflict(nameTaken.getMessage());
    }
}
