package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;

/** The SQL over {@code automation.events}, the inbox of artifact events. */
@ApplicationScoped
public class EventStore {

    private static final String COLUMNS = """
            event_id, event_type, entity, project, collection, version, aliases, tags, author, metadata,
            occurred_at, received_at""";

    /** Where an event sits in the newest-first order: the cursor of the page after it. */
    public record Position(OffsetDateTime occurredAt, String eventId) {
    }

    private final Pool pool;

    public EventStore(Pool pool) {
        this.pool = pool;
    }

    /** What {@link #storeWithDeliveries} did: how many of the events were new, and the deliveries it queued. */
    public record Stored(long newEvents, Set<UUID> queuedDeliveries) {
    }

    /**
     * Stores those of the events whose id is not stored yet and, for exactly those, their deliveries: one
     * statement, so one round trip and one (implicit) transaction. A redelivered event therefore queues no
     * delivery twice. Deliveries whose id is in {@code leased} go in already claimed (SENDING, first attempt,
     * leased for {@code lease}) for the dispatcher of this instance; the rest wait for a claim. The event
     * ids must be distinct.
     */
    public Uni<Stored> storeWithDeliveries(List<ArtifactEvent> events, List<NewDelivery> deliveries, Set<UUID> leased,
            Duration lease) {
        JsonArray eventRows = new JsonArray();
        for (ArtifactEvent event : events) {
            eventRows.add(new JsonObject()
                    .put("event_id", event.eventId())
                    .put("event_type", event.eventType().name())
                    .put("entity", event.entity())
                    .put("project", event.project())
                    .put("collection", event.collection())
                    .put("version", event.version())
                    .put("version_index", event.knownVersionIndex().orElse(null))
                    .put("aliases", new JsonArray(event.aliases() == null ? List.of() : event.aliases()))
                    .put("tags", new JsonArray(event.tags() == null ? List.of() : event.tags()))
                    .put("author", event.author())
                    .put("metadata", new JsonObject(event.metadata() == null ? Map.of() : event.metadata()))
                    .put("occurred_at", event.occurredAt() == null ? null : event.occurredAt().toString()));
        }
        JsonArray deliveryRows = new JsonArray();
        for (NewDelivery delivery : deliveries) {
            String status = !delivery.webhook().enabled() ? "DISCARDED" : leased.contains(delivery.id()) ? "SENDING" : "PENDING";
            deliveryRows.add(new JsonObject()
                    .put("id", delivery.id().toString())
                    .put("event_id", delivery.eventId())
                    .put("automation_id", delivery.automation().id().toString())
                    .put("webhook_id", delivery.automation().action().webhookId().toString())
                    .put("payload_template", delivery.automation().action().payloadTemplate().toString())
                    .put("matched_values", new JsonArray(delivery.matchedValues()))
                    .put("payload_masked", delivery.maskedPayload())
                    .put("status", status));
        }
        return pool.preparedQuery("""
                WITH stored AS (
                    INSERT INTO automation.events
                        (event_id, event_type, entity, project, collection, version, version_index, aliases, tags, author,
                         metadata, occurred_at)
                    SELECT e.event_id, e.event_type, e.entity, e.project, e.collection, e.version, e.version_index, e.aliases,
                           e.tags, e.author, e.metadata, COALESCE(e.occurred_at, now())
                    FROM jsonb_to_recordset($1::jsonb) AS e(event_id text, event_type text, entity text, project text,
                         collection text, version text, version_index integer, aliases text[], tags text[], author text,
                         metadata jsonb, occurred_at timestamptz)
                    ON CONFLICT (event_id) DO NOTHING
                    RETURNING event_id),
                queued AS (
                    INSERT INTO automation.deliveries (id, event_id, automation_id, webhook_id, payload_template, matched_values,
                                                       payload_masked, status, attempt_count, lease_until)
                    SELECT d.id, d.event_id, d.automation_id, d.webhook_id, d.payload_template, d.matched_values, d.payload_masked,
                           d.status, CASE WHEN d.status = 'SENDING' THEN 1 ELSE 0 END,
                           CASE WHEN d.status = 'SENDING' THEN now() + make_interval(secs => $3) END
                    FROM jsonb_to_recordset($2::jsonb) AS d(id uuid, event_id text, automation_id uuid, webhook_id uuid,
                         payload_template text, matched_values text[], payload_masked text, status text)
                    WHERE d.event_id IN (SELECT event_id FROM stored)
                    ON CONFLICT (event_id, automation_id) DO NOTHING
                    RETURNING id)
                SELECT (SELECT count(*) FROM stored) AS new_events, ARRAY(SELECT id FROM queued) AS queued""")
                .execute(Tuple.of(eventRows, deliveryRows, (double) lease.toMillis() / 1000))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Stored(row.getLong("new_events"), Set.of(row.getArrayOfUUIDs("queued")));
                });
    }

    public Uni<Optional<RecordedEvent>> find(String eventId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM automation.events WHERE event_id = $1")
                .execute(Tuple.of(eventId))
                .map(rows -> toEvents(rows).stream().findFirst());
    }

    /** The position of an event of {@code entity}; empty when there is none with that id there. */
    public Uni<Optional<Position>> position(String entity, String eventId) {
        return pool.preparedQuery("SELECT occurred_at FROM automation.events WHERE event_id = $1 AND entity = $2")
                .execute(Tuple.of(eventId, entity))
                .map(rows -> rows.rowCount() == 0
                        ? Optional.empty()
                        : Optional.of(new Position(rows.iterator().next().getOffsetDateTime("occurred_at"), eventId)));
    }

    /** Up to {@code limit} events of the entity (and project, when given) that come after {@code after}, newest first. */
    public Uni<List<RecordedEvent>> newestFirst(String entity, Optional<String> project, Optional<Position> after, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM automation.events WHERE entity = $1");
        Tuple parameters = Tuple.of(entity);
        if (project.isPresent()) {
            parameters.addString(project.get());
            sql.append(" AND project = $").append(parameters.size());
        }
        if (after.isPresent()) {
            parameters.addOffsetDateTime(after.get().occurredAt()).addString(after.get().eventId());
            sql.append(" AND (occurred_at, event_id) < ($").append(parameters.size() - 1)
                    .append(", $").append(parameters.size()).append(')');
        }
        parameters.addInteger(limit);
        sql.append(" ORDER BY occurred_at DESC, event_id DESC LIMIT $").append(parameters.size());
        return pool.preparedQuery(sql.toString()).execute(parameters).map(EventStore::toEvents);
    }

    private static List<RecordedEvent> toEvents(RowSet<Row> rows) {
        List<RecordedEvent> events = new ArrayList<>(rows.rowCount());
        for (Row row : rows) {
            events.add(new RecordedEvent(
                    row.getString("event_id"),
                    ArtifactEventType.valueOf(row.getString("event_type")),
                    row.getString("entity"),
                    row.getString("project"),
                    row.getString("collection"),
                    row.getString("version"),
                    Arrays.asList(row.getArrayOfStrings("aliases")),
                    Arrays.asList(row.getArrayOfStrings("tags")),
                    row.getString("author"),
                    row.getJsonObject("metadata").getMap(),
                    row.getOffsetDateTime("occurred_at"),
                    row.getOffsetDateTime("received_at")));
        }
        return events;
    }

    private static String[] strings(List<String> values) {
        return values == null ? new String[0] : values.toArray(String[]::new);
    }
}
