package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * Stores, in one pipelined batch, those of the events whose id is not stored yet; returns them (the ones
     * this call stored). The ids must be distinct.
     */
    public Uni<List<ArtifactEvent>> insertNew(SqlClient client, List<ArtifactEvent> events) {
        List<Tuple> rows = new ArrayList<>(events.size());
        for (ArtifactEvent event : events) {
            rows.add(Tuple.tuple()
                    .addString(event.eventId())
                    .addString(event.eventType().name())
                    .addString(event.entity())
                    .addString(event.project())
                    .addString(event.collection())
                    .addString(event.version())
                    .addArrayOfString(strings(event.aliases()))
                    .addArrayOfString(strings(event.tags()))
                    .addString(event.author())
                    .addJsonObject(new JsonObject(event.metadata() == null ? Map.of() : event.metadata()))
                    .addOffsetDateTime(event.occurredAt() == null ? null : event.occurredAt().atOffset(ZoneOffset.UTC)));
        }
        return client.preparedQuery("""
                INSERT INTO automation.events
                    (event_id, event_type, entity, project, collection, version, aliases, tags, author, metadata, occurred_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, COALESCE($11::timestamptz, now()))
                ON CONFLICT (event_id) DO NOTHING
                RETURNING event_id""")
                .executeBatch(rows)
                .map(results -> {
                    Set<String> stored = new HashSet<>();
                    for (RowSet<Row> result = results; result != null; result = result.next()) {
                        result.forEach(row -> stored.add(row.getString(0)));
                    }
                    return events.stream().filter(event -> stored.contains(event.eventId())).toList();
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
