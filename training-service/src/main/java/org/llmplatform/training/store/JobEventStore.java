package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The SQL over {@code training.job_events}: appended in acceptance order, read by position. */
@ApplicationScoped
public class JobEventStore {

    private final Pool pool;

    public JobEventStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> append(SqlClient transaction, UUID jobId, String type, Map<String, Object> data) {
        return transaction.preparedQuery("INSERT INTO training.job_events (id, job_id, type, data) VALUES ($1, $2, $3, $4)")
                .execute(Tuple.of(UUID.randomUUID(), jobId, type, new JsonObject(new LinkedHashMap<>(data))))
                .replaceWithVoid();
    }

    public Uni<Optional<Long>> positionOf(UUID jobId, UUID eventId) {
        return pool.preparedQuery("SELECT position FROM training.job_events WHERE job_id = $1 AND id = $2")
                .execute(Tuple.of(jobId, eventId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getLong("position")));
    }

    /** Up to {@code limit} events of the job past {@code afterPosition}, oldest first. */
    public Uni<List<JobEvent>> list(UUID jobId, long afterPosition, int limit) {
        return pool.preparedQuery("""
                SELECT id, type, data, created_at FROM training.job_events WHERE job_id = $1 AND position > $2 ORDER BY position LIMIT $3""")
                .execute(Tuple.of(jobId, afterPosition, limit))
                .map(rows -> {
                    List<JobEvent> events = new ArrayList<>();
                    rows.forEach(row -> events.add(new JobEvent(row.getUUID("id"), row.getString("type"),
                            row.getJsonObject("data").getMap(), row.getOffsetDateTime("created_at").toInstant())));
                    return events;
                });
    }
}
