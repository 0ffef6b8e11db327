package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.llmplatform.automation.delivery.SendResult;
import org.llmplatform.automation.delivery.WebhookRequest;
import org.llmplatform.automation.delivery.WebhookSecrets;
import org.llmplatform.automation.delivery.WebhookSender;
import org.llmplatform.automation.security.UnsafeUrl;
import org.llmplatform.automation.security.UrlGuard;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;
import org.llmplatform.automation.store.SecretStore;
import org.llmplatform.automation.store.Webhook;
import org.llmplatform.automation.store.WebhookStore;
import org.llmplatform.automation.template.PayloadTemplate;
import org.llmplatform.automation.template.TemplateValues;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** A team's webhooks: added, changed, tested and removed by its admins, seen by its members. */
@ApplicationScoped
public class WebhookService {

    private static final Pattern NAME = Pattern.compile("[-\\w]+( [-\\w]+)*");
    private static final int LONGEST_NAME = 64;
    private static final int LONGEST_URL = 2048;
    private static final String UNIQUE_VIOLATION = "23505";

    private final WebhookStore store;
    private final SecretStore secrets;
    private final WebhookSecrets secretValues;
    private final WebhookSender sender;
    private final UrlGuard guard;
    private final CurrentPrincipal caller;

    public WebhookService(WebhookStore store, SecretStore secrets, WebhookSecrets secretValues, WebhookSender sender,
            UrlGuard guard, CurrentPrincipal caller) {
        this.store = store;
        this.secrets = secrets;
        this.secretValues = secretValues;
        this.sender = sender;
        this.guard = guard;
        this.caller = caller;
    }

    public Uni<Webhook> create(WebhookInput input) {
        if (input == null || input.entity() == null || input.entity().isBlank()) {
            throw ApiException.missingField("entity");
        }
        Permissions.requireManager(caller.get(), input.entity(), "webhooks");
        String name = name(input.name());
        String accessToken = blankToNull(input.accessTokenSecret());
        String secret = blankToNull(input.secret());
        return checked(input.entity(), input.url(), accessToken, secret)
                .chain(() -> store.insert(input.entity(), name, input.url(), accessToken, secret))
                .map(created -> created.orElseThrow(() ->
                        ApiException.conflict("A webhook named '" + name + "' already exists in '" + input.entity() + "'")));
    }

    public Uni<Webhook> update(UUID id, WebhookInput input) {
        return managed(id).chain(current -> {
            WebhookInput changes = input == null ? new WebhookInput(null, null, null, null, null, null) : input;
            String name = changes.name() == null ? current.name() : name(changes.name());
            String url = changes.url() == null ? current.url() : changes.url();
            String accessToken = changes.accessTokenSecret() == null ? current.accessTokenSecret() : blankToNull(changes.accessTokenSecret());
            String secret = changes.secret() == null ? current.secret() : blankToNull(changes.secret());
            boolean enabled = changes.enabled() == null ? current.enabled() : changes.enabled();
            return checked(current.entity(), url, accessToken, secret)
                    .chain(() -> store.update(id, name, url, accessToken, secret, enabled))
                    .onFailure(failure -> failure instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState()))
                    .transform(failure -> ApiException.conflict("A webhook named '" + name + "' already exists in '" + current.entity() + "'"))
                    .map(updated -> updated.orElseThrow(() -> missing(id)));
        });
    }

    public Uni<Webhook> find(UUID id) {
        Principal principal = caller.get();
        return store.find(id).map(found -> {
            Webhook webhook = found.orElseThrow(() -> missing(id));
            return Permissions.visible(principal, webhook.entity(), webhook, missing(id).getMessage());
        });
    }

    public Uni<List<Webhook>> list(String entity) {
        Permissions.requireViewer(caller.get(), entity);
        return store.list(entity);
    }

    public Uni<Void> delete(UUID id) {
        return managed(id)
                .chain(webhook -> store.usedByAutomations(id))
                .chain(used -> {
                    if (used) {
                        throw ApiException.conflict("The webhook is used by automations; change or delete them first");
                    }
                    return store.delete(id);
                })
                .replaceWithVoid();
    }

    /**
     * Sends a payload (not stored) with the webhook's credentials and signature, through the same SSRF guard
     * as deliveries, and returns what the endpoint answered. The payload may use the webhook's secret variables.
     */
    public Uni<SendResult> test(UUID id, JsonNode payload) {
        String author = caller.get().userName();
        return managed(id).chain(webhook -> {
            JsonNode template = payload == null || payload.isNull() ? defaultTestPayload(webhook) : payload;
            ObjectNode validated = PayloadTemplate.validated(template, secretVariables(webhook), List.of("body", "payload"));
            return secretValues.resolve(webhook.entity(), webhook.accessTokenSecret(), webhook.secret())
                    .onFailure(WebhookSecrets.MissingSecret.class).transform(e -> ApiException.invalidField("value_error",
                            List.of("path", "id"), e.getMessage(), id.toString()))
                    .chain(resolved -> {
                        byte[] body = PayloadTemplate.bytes(PayloadTemplate.render(validated,
                                TemplateValues.of(testFacts(webhook, author), List.of(), resolved.variables()), ""));
                        return sender.post(webhook.url(), body, WebhookRequest.headers("test_" + UUID.randomUUID(), body,
                                        resolved.accessToken(), resolved.signingSecret(), Instant.now()))
                                .map(result -> result.scrubbed(resolved.values()));
                    });
        });
    }

    /** The variables a payload for this webhook may use besides the event ones. */
    static Set<String> secretVariables(Webhook webhook) {
        Set<String> variables = new HashSet<>();
        if (webhook.accessTokenSecret() != null) {
            variables.add(PayloadTemplate.ACCESS_TOKEN);
        }
        if (webhook.secret() != null) {
            variables.add(webhook.secret());
        }
        return variables;
    }

    /** The webhook, when the caller may manage it: 404 when its entity is not the caller's, 403 for a member. */
    Uni<Webhook> managed(UUID id) {
        Principal principal = caller.get();
        return find(id).invoke(webhook -> Permissions.requireManager(principal, webhook.entity(), "webhooks"));
    }

    private Uni<Void> checked(String entity, String url, String accessToken, String secret) {
        if (url == null || url.isBlank()) {
            throw ApiException.missingField("url");
        }
        if (url.length() > LONGEST_URL) {
            throw ApiException.invalidField("value_error", List.of("body", "url"), "The URL is longer than " + LONGEST_URL, null);
        }
        if (accessToken != null && accessToken.equals(secret)) {
            throw ApiException.invalidField("value_error", List.of("body", "secret"),
                    "The access token and the signing secret must be different secrets", secret);
        }
        Uni<Void> checks = Uni.createFrom().item(() -> guard.check(url))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onFailure(UnsafeUrl.class).transform(unsafe -> ApiException.invalidField("value_error", List.of("body", "url"),
                        unsafe.getMessage(), url))
                .replaceWithVoid();
        for (String[] reference : new String[][] {{"access_token_secret", accessToken}, {"secret", secret}}) {
            if (reference[1] != null) {
                checks = checks.chain(() -> secrets.exists(entity, reference[1]).invoke(exists -> {
                    if (!exists) {
                        throw ApiException.invalidField("value_error", List.of("body", reference[0]),
                                "No secret '" + reference[1] + "' in '" + entity + "'", reference[1]);
                    }
                }).replaceWithVoid());
            }
        }
        return checks;
    }

    private static String name(String name) {
        if (name == null) {
            throw ApiException.missingField("name");
        }
        if (name.length() > LONGEST_NAME || !NAME.matcher(name).matches()) {
            throw ApiException.invalidField("string_pattern_mismatch", List.of("body", "name"),
                    "A webhook name has up to 64 characters: words of letters, digits, '_' or '-' separated by single spaces", name);
        }
        return name;
    }

    private static JsonNode defaultTestPayload(Webhook webhook) {
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.put("event_type", "TEST");
        payload.put("webhook", webhook.name());
        payload.put("entity_name", webhook.entity());
        return payload;
    }

    /** A test has no event: entity and author are the webhook's and the caller's, the rest renders empty. */
    private static EventFacts testFacts(Webhook webhook, String author) {
        return new EventFacts("TEST", webhook.entity(), "", "", "", null, author, Map.of());
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    static ApiException missing(UUID id) {
        return ApiException.notFound("No webhook with id '" + id + "'");
    }
}
