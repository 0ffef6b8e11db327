package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.llmplatform.model.events.ArtifactEvent;

/** The SQL over {@code automation.automations}. */
@ApplicationScoped
public class AutomationStore {

    private static final String COLUMNS = """
            id, entity, name, description, enabled, scope_type, scope_project, scope_collection, event_type, event_filter,
            webhook_id, payload_template, created_by, created_at, updated_at""";
    private static final String UNIQUE_VIOLATION = "23505";

    private final Pool pool;

    public AutomationStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Automation> insert(Automation automation) {
        return pool.preparedQuery("INSERT INTO automation.automations (id, entity, name, description, enabled, scope_type, "
                        + "scope_project, scope_collection, event_type, event_filter, webhook_id, payload_template, created_by) "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING " + COLUMNS)
                .execute(values(automation).addString(automation.createdBy()))
                .onFailure(AutomationStore::duplicateName).transform(e -> nameTaken(automation))
                .map(rows -> all(rows).get(0));
    }

    public Uni<Optional<Automation>> update(Automation automation) {
        return pool.preparedQuery("""
                UPDATE automation.automations SET entity = $2, name = $3, description = $4, enabled = $5, scope_type = $6,
                    scope_project = $7, scope_collection = $8, event_type = $9, event_filter = $10, webhook_id = $11,
                    payload_template = $12, updated_at = now()
                WHERE id = $1 RETURNING\s""" + COLUMNS)
                .execute(values(automation))
                .onFailure(AutomationStore::duplicateName).transform(e -> nameTaken(automation))
                .map(rows -> all(rows).stream().findFirst());
    }

    public Uni<Optional<Automation>> find(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM automation.automations WHERE id = $1")
                .execute(Tuple.of(id)).map(rows -> all(rows).stream().findFirst());
    }

    public Uni<List<Automation>> list(String entity) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM automation.automations WHERE entity = $1 ORDER BY name, id")
                .execute(Tuple.of(entity)).map(AutomationStore::all);
    }

    public Uni<Boolean> delete(UUID id) {
        return pool.preparedQuery("DELETE FROM automation.automations WHERE id = $1")
                .execute(Tuple.of(id)).map(rows -> rows.rowCount() > 0);
    }

    /** An automation that may fire for an event, with its webhook as it is now. */
    public record Candidate(Automation automation, WebhookTarget webhook) {

        /** Whether the event is of this automation's type and inside its scope; the filter is the caller's to apply. */
        public boolean considers(ArtifactEvent event) {
            Automation.Scope scope = automation.scope();
            if (!scope.entity().equals(event.entity()) || !automation.event().type().equals(event.eventType().name())) {
                return false;
            }
            return "ENTITY".equals(scope.type())
                    || ((event.entity() + "/" + event.project()).equals(scope.project())
                        && (scope.collection() == null || scope.collection().equals(event.collection())));
        }
    }

    /**
     * The enabled automations of every (entity, event type) among the events, with their webhooks and the
     * webhooks' stored secrets, in one query; which of them consider which event is {@link Candidate#considers}.
     */
    public Uni<List<Candidate>> candidates(List<ArtifactEvent> events) {
        Set<List<String>> keys = new LinkedHashSet<>();
        events.forEach(event -> keys.add(List.of(event.entity(), event.eventType().name())));
        return pool.preparedQuery("SELECT " + COLUMNS.replaceAll("(\\w+)", "a.$1") + ", " + WebhookTarget.COLUMNS + """

                FROM automation.automations a JOIN automation.webhooks w ON w.id = a.webhook_id
                """ + WebhookTarget.SECRET_JOINS + """

                WHERE a.enabled AND (a.entity, a.event_type) IN (SELECT * FROM unnest($1::text[], $2::text[]))""")
                .execute(Tuple.of(keys.stream().map(key -> key.get(0)).toArray(String[]::new),
                        keys.stream().map(key -> key.get(1)).toArray(String[]::new)))
                .map(rows -> {
                    List<Automation> automations = all(rows);
                    List<Candidate> candidates = new ArrayList<>();
                    int i = 0;
                    for (Row row : rows) {
                        candidates.add(new Candidate(automations.get(i++), WebhookTarget.from(row)));
                    }
                    return candidates;
                });
    }

    private static Tuple values(Automation automation) {
        return Tuple.tuple()
                .addUUID(automation.id())
                .addString(automation.scope().entity())
                .addString(automation.name())
                .addString(automation.description())
                .addBoolean(automation.enabled())
                .addString(automation.scope().type())
                .addString(automation.scope().project())
                .addString(automation.scope().collection())
                .addString(automation.event().type())
                .addValue(new JsonObject(automation.event().filter().toString()))
                .addUUID(automation.action().webhookId())
                .addString(automation.action().payloadTemplate().toString());
    }

    private static boolean duplicateName(Throwable failure) {
        return failure instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState());
    }

    private static NameTaken nameTaken(Automation automation) {
        return new NameTaken("An automation named '" + automation.name() + "' already exists in this scope");
    }

    /** Another automation of the same scope already has this name. */
    public static final class NameTaken extends RuntimeException {
        NameTaken(String message) {
            super(message);
        }
    }

    private static List<Automation> all(RowSet<Row> rows) {
        List<Automation> automations = new ArrayList<>();
        for (Row row : rows) {
            automations.add(new Automation(
                    row.getUUID("id"),
                    row.getString("name"),
                    row.getString("description"),
                    row.getBoolean("enabled"),
                    new Automation.Scope(row.getString("scope_type"), row.getString("entity"), row.getString("scope_project"),
                            row.getString("scope_collection")),
                    new Automation.Event(row.getString("event_type"), StoredJson.parse(row.getJsonObject("event_filter").encode())),
                    new Automation.Action("WEBHOOK", row.getUUID("webhook_id"), StoredJson.parse(row.getString("payload_template"))),
                    row.getString("created_by"),
                    row.getOffsetDateTime("created_at"),
                    row.getOffsetDateTime("updated_at")));
        }
        return automations;
    }
}
