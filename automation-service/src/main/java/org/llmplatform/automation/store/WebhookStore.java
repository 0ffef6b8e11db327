package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The SQL over {@code automation.webhooks}. */
@ApplicationScoped
public class WebhookStore {

    private static final String COLUMNS = """
            id, entity, name, url, access_token_secret, signing_secret, enabled, disabled_reason, failing_since,
            created_at, updated_at""";

    private final Pool pool;

    public WebhookStore(Pool pool) {
        this.pool = pool;
    }

    /** The new webhook, or empty when the entity already has one of that name. */
    public Uni<Optional<Webhook>> insert(String entity, String name, String url, String accessTokenSecret, String signingSecret) {
        return pool.preparedQuery("INSERT INTO automation.webhooks (id, entity, name, url, access_token_secret, signing_secret) "
                        + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (entity, name) DO NOTHING RETURNING " + COLUMNS)
                .execute(Tuple.of(UUID.randomUUID(), entity, name, url, accessTokenSecret, signingSecret))
                .map(WebhookStore::first);
    }

    /** Replaces the settings; turning a webhook on again clears why it was disabled and its failure streak. */
    public Uni<Optional<Webhook>> update(UUID id, String name, String url, String accessTokenSecret, String signingSecret,
            boolean enabled) {
        return pool.preparedQuery("""
                UPDATE automation.webhooks SET name = $2, url = $3, access_token_secret = $4, signing_secret = $5,
                    enabled = $6,
                    disabled_reason = CASE WHEN $6 THEN NULL ELSE COALESCE(disabled_reason, 'Disabled by a team admin') END,
                    failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END,
                    updated_at = now()
                WHERE id = $1 RETURNING\s""" + COLUMNS)
                .execute(Tuple.of(id, name, url, accessTokenSecret, signingSecret, enabled))
                .map(WebhookStore::first);
    }

    public Uni<Optional<Webhook>> find(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM automation.webhooks WHERE id = $1")
                .execute(Tuple.of(id)).map(WebhookStore::first);
    }

    public Uni<List<Webhook>> list(String entity) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM automation.webhooks WHERE entity = $1 ORDER BY name")
                .execute(Tuple.of(entity)).map(WebhookStore::all);
    }

    public Uni<Boolean> delete(UUID id) {
        return pool.preparedQuery("DELETE FROM automation.webhooks WHERE id = $1")
                .execute(Tuple.of(id)).map(rows -> rows.rowCount() > 0);
    }

    public Uni<Boolean> usedByAutomations(UUID id) {
        return pool.preparedQuery("SELECT 1 FROM automation.automations WHERE webhook_id = $1 LIMIT 1")
                .execute(Tuple.of(id)).map(rows -> rows.rowCount() > 0);
    }

    /** Starts or continues the failure streak; true when the streak is now older than {@code disableAfterSeconds}. */
    public Uni<Boolean> recordFailure(UUID id, long disableAfterSeconds) {
        return pool.preparedQuery("""
                UPDATE automation.webhooks SET failing_since = COALESCE(failing_since, now()) WHERE id = $1
                RETURNING failing_since <= now() - make_interval(secs => $2)""")
                .execute(Tuple.of(id, (double) disableAfterSeconds))
                .map(rows -> rows.rowCount() > 0 && Boolean.TRUE.equals(rows.iterator().next().getBoolean(0)));
    }

    public Uni<Void> disable(UUID id, String reason) {
        return pool.preparedQuery("UPDATE automation.webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1")
                .execute(Tuple.of(id, reason)).replaceWithVoid();
    }

    private static Optional<Webhook> first(RowSet<Row> rows) {
        return all(rows).stream().findFirst();
    }

    private static List<Webhook> all(RowSet<Row> rows) {
        List<Webhook> webhooks = new ArrayList<>();
        for (Row row : rows) {
            webhooks.add(new Webhook(row.getUUID("id"), row.getString("entity"), row.getString("name"), row.getString("url"),
                    row.getString("access_token_secret"), row.getString("signing_secret"), row.getBoolean("enabled"),
                    row.getString("disabled_reason"), row.getOffsetDateTime("failing_since"),
                    row.getOffsetDateTime("created_at"), row.getOffsetDateTime("updated_at")));
        }
        return webhooks;
    }
}
