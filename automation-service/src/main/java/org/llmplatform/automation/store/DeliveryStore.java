package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** The SQL over {@code automation.deliveries} and {@code automation.attempts}: the delivery queue and its history. */
@ApplicationScoped
public class DeliveryStore {

    private static final String HISTORY_COLUMNS = """
            d.id, d.automation_id, d.event_id, e.event_type, d.webhook_id, d.status, d.attempt_count, d.next_attempt_at,
            d.last_status_code, d.last_error, d.payload_masked, d.created_at, d.updated_at""";

    /**
     * Records finished attempts ({@code $1}, a JSON array) and moves their deliveries on; clears the failure streak
     * of the webhooks in {@code $2}. The deliveries are found by their ids as an array: PostgreSQL takes a JSON
     * array for 100 rows whatever it holds, and joined to it a table of up to some ten thousand deliveries was read
     * whole (a hash join over a sequential scan) for every batch of attempts: 3 to 6 ms a batch at 10,000 deliveries,
     * where the index takes a tenth of a millisecond.
     */
    static final String FINISH = """
            WITH finished AS (
                SELECT * FROM jsonb_to_recordset($1::jsonb) AS f(delivery_id uuid, attempt_number integer, trigger text,
                    started_at timestamptz, duration_ms bigint, status_code integer, response_body text, error text,
                    succeeded boolean, next_status text, next_attempt_at timestamptz)),
            attempts AS (
                INSERT INTO automation.attempts
                    (delivery_id, attempt_number, trigger, started_at, duration_ms, status_code, response_body, error, succeeded)
                SELECT delivery_id, attempt_number, trigger, started_at, duration_ms, status_code, response_body, error, succeeded
                FROM finished),
            moved AS (
                UPDATE automation.deliveries d
                SET status = f.next_status, next_attempt_at = COALESCE(f.next_attempt_at, d.next_attempt_at), lease_until = NULL,
                    next_trigger = 'SCHEDULED', last_status_code = f.status_code, last_error = f.error, updated_at = now()
                FROM finished f
                WHERE d.id = ANY(ARRAY(SELECT delivery_id FROM finished)) AND d.id = f.delivery_id)
            UPDATE automation.webhooks SET failing_since = NULL WHERE id = ANY($2) AND failing_since IS NOT NULL""";

    private final Pool pool;

    public DeliveryStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Claims up to {@code limit} due deliveries (and ones whose dispatcher's lease ran out) for {@code lease};
     * concurrent dispatchers skip each other's rows. Each comes with its event and its webhook, the webhook's
     * stored secrets included, so sending it needs no further query.
     */
    public Uni<List<DeliveryJob>> claimDue(int limit, Duration lease) {
        return pool.preparedQuery("""
                WITH due AS (
                    SELECT id FROM automation.deliveries
                    WHERE status IN ('PENDING', 'RETRY', 'SENDING')
                      AND ((status IN ('PENDING', 'RETRY') AND next_attempt_at <= now())
                           OR (status = 'SENDING' AND lease_until < now()))
                    ORDER BY next_attempt_at
                    LIMIT $1
                    FOR UPDATE SKIP LOCKED),
                claimed AS (
                    UPDATE automation.deliveries d
                    SET status = 'SENDING', lease_until = now() + make_interval(secs => $2),
                        attempt_count = d.attempt_count + 1, updated_at = now()
                    FROM due WHERE d.id = due.id
                    RETURNING d.id, d.event_id, d.automation_id, d.webhook_id, d.payload_template, d.matched_values,
                              d.attempt_count, d.next_trigger)
                SELECT c.*, e.event_type, e.entity, e.project, e.collection, e.version, e.version_index, e.author, e.metadata,
                """ + WebhookTarget.COLUMNS + """

                FROM claimed c
                JOIN automation.events e ON e.event_id = c.event_id
                JOIN automation.webhooks w ON w.id = c.webhook_id
                """ + WebhookTarget.SECRET_JOINS)
                .execute(Tuple.of(limit, (double) lease.toMillis() / 1000))
                .map(rows -> {
                    List<DeliveryJob> jobs = new ArrayList<>();
                    for (Row row : rows) {
                        jobs.add(new DeliveryJob(
                                row.getUUID("id"),
                                row.getUUID("automation_id"),
                                row.getInteger("attempt_count"),
                                "MANUAL".equals(row.getString("next_trigger")),
                                row.getString("payload_template"),
                                Arrays.asList(row.getArrayOfStrings("matched_values")),
                                new DeliveryJob.EventFacts(row.getString("event_type"), row.getString("entity"),
                                        row.getString("project"), row.getString("collection"), row.getString("version"),
                                        row.getInteger("version_index"), row.getString("author"), row.getJsonObject("metadata").getMap()),
                                WebhookTarget.from(row)));
                    }
                    return jobs;
                });
    }

    /**
     * Records finished attempts and moves their deliveries on, and clears the failure streak of the webhooks
     * that answered 2xx: one statement, so one round trip and one (implicit) transaction for all of them.
     */
    public Uni<Void> finishAll(List<Finished> finished) {
        JsonArray rows = new JsonArray();
        Set<UUID> answered = new LinkedHashSet<>();
        for (Finished one : finished) {
            AttemptOutcome outcome = one.outcome();
            rows.add(new JsonObject()
                    .put("delivery_id", one.deliveryId().toString())
                    .put("attempt_number", outcome.attemptNumber())
                    .put("trigger", outcome.manual() ? "MANUAL" : "SCHEDULED")
                    .put("started_at", outcome.startedAt().toString())
                    .put("duration_ms", outcome.durationMs())
                    .put("status_code", outcome.statusCode())
                    .put("response_body", outcome.responseBody())
                    .put("error", outcome.error())
                    .put("succeeded", outcome.succeeded())
                    .put("next_status", outcome.nextStatus())
                    .put("next_attempt_at", outcome.nextAttemptAt() == null ? null : outcome.nextAttemptAt().toString()));
            if (outcome.succeeded()) {
                answered.add(one.webhookId());
            }
        }
        return pool.preparedQuery(FINISH)
                .execute(Tuple.of(rows, answered.toArray(UUID[]::new)))
                .replaceWithVoid();
    }

    /** A finished attempt of a delivery to a webhook. */
    public record Finished(UUID deliveryId, UUID webhookId, AttemptOutcome outcome) {
    }

    /** The automation's deliveries newest first, each with its attempts. */
    public Uni<List<Delivery>> history(UUID automationId, int limit) {
        return pool.preparedQuery("SELECT " + HISTORY_COLUMNS + """
                 FROM automation.deliveries d JOIN automation.events e ON e.event_id = d.event_id
                WHERE d.automation_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2""")
                .execute(Tuple.of(automationId, limit))
                .chain(rows -> {
                    Map<UUID, Row> deliveries = new LinkedHashMap<>();
                    rows.forEach(row -> deliveries.put(row.getUUID("id"), row));
                    return attempts(deliveries.keySet().toArray(UUID[]::new)).map(attempts -> {
                        List<Delivery> history = new ArrayList<>();
                        deliveries.forEach((id, row) -> history.add(delivery(row, attempts.getOrDefault(id, List.of()))));
                        return history;
                    });
                });
    }

    /** Queues one more (manual) attempt of a delivery that is not in flight; false when there is none such. */
    public Uni<Boolean> redeliver(UUID automationId, UUID deliveryId) {
        return pool.preparedQuery("""
                UPDATE automation.deliveries
                SET status = 'PENDING', next_attempt_at = now(), next_trigger = 'MANUAL', updated_at = now()
                WHERE id = $1 AND automation_id = $2 AND status IN ('SUCCEEDED', 'FAILED', 'DISCARDED')""")
                .execute(Tuple.of(deliveryId, automationId)).map(rows -> rows.rowCount() == 1);
    }

    /**
     * Queues a manual attempt of every delivery of the automation that failed or was discarded while its
     * webhook was disabled (the recovery after fixing an endpoint); returns how many.
     */
    public Uni<Integer> redeliverFailed(UUID automationId) {
        return pool.preparedQuery("""
                UPDATE automation.deliveries
                SET status = 'PENDING', next_attempt_at = now(), next_trigger = 'MANUAL', updated_at = now()
                WHERE automation_id = $1 AND status IN ('FAILED', 'DISCARDED')""")
                .execute(Tuple.of(automationId)).map(rows -> rows.rowCount());
    }

    public Uni<Boolean> exists(UUID automationId, UUID deliveryId) {
        return pool.preparedQuery("SELECT 1 FROM automation.deliveries WHERE id = $1 AND automation_id = $2")
                .execute(Tuple.of(deliveryId, automationId)).map(rows -> rows.rowCount() > 0);
    }

    private Uni<Map<UUID, List<Delivery.Attempt>>> attempts(UUID[] deliveryIds) {
        return pool.preparedQuery("""
                SELECT delivery_id, attempt_number, trigger, started_at, duration_ms, status_code, response_body, error, succeeded
                FROM automation.attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, id""")
                .execute(Tuple.of(deliveryIds))
                .map(rows -> {
                    Map<UUID, List<Delivery.Attempt>> attempts = new LinkedHashMap<>();
                    for (Row row : rows) {
                        attempts.computeIfAbsent(row.getUUID("delivery_id"), id -> new ArrayList<>()).add(new Delivery.Attempt(
                                row.getInteger("attempt_number"), row.getString("trigger"), row.getOffsetDateTime("started_at"),
                                row.getLong("duration_ms"), row.getInteger("status_code"), row.getString("response_body"),
                                row.getString("error"), row.getBoolean("succeeded")));
                    }
                    return attempts;
                });
    }

    private static Delivery delivery(Row row, List<Delivery.Attempt> attempts) {
        return new Delivery(row.getUUID("id"), row.getUUID("automation_id"), row.getString("event_id"), row.getString("event_type"),
                row.getUUID("webhook_id"), row.getString("status"), row.getInteger("attempt_count"),
                row.getOffsetDateTime("next_attempt_at"), row.getInteger("last_status_code"), row.getString("last_error"),
                StoredJson.parse(row.getString("payload_masked")), row.getOffsetDateTime("created_at"),
                row.getOffsetDateTime("updated_at"), attempts);
    }
}
