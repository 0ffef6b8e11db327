package org.llmplatform.inference.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The SQL over {@code inference.usage_requests}, {@code inference.usage_totals} and {@code inference.usage_daily}. */
@ApplicationScoped
public class UsageTotalsStore {

    /** One completion to add to its project's and model's totals. */
    public record Usage(String requestId, String projectId, String model, long promptTokens,
            long completionTokens, boolean failed, OffsetDateTime at) {
    }

    private final Pool pool;

    public UsageTotalsStore(Pool pool) {
        this.pool = pool;
    }

    /** Adds the usage unless its request id was counted before; true when it was added now. */
    public Uni<Boolean> add(Usage usage) {
        return pool.withTransaction(tx -> tx
                .preparedQuery("INSERT INTO inference.usage_requests (request_id) VALUES ($1) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(usage.requestId()))
                .flatMap(inserted -> inserted.rowCount() == 0
                        ? Uni.createFrom().item(false)
                        : addToTotals(tx, usage).replaceWith(true)));
    }

    private static Uni<Void> addToTotals(SqlClient tx, Usage usage) {
        return tx.preparedQuery("""
                INSERT INTO inference.usage_totals AS t (project_id, model, requests, errors, prompt_tokens,
                        completion_tokens, total_tokens, last_request_at)
                VALUES ($1, $2, 1, $3, $4, $5, $6, $7)
                ON CONFLICT (project_id, model) DO UPDATE SET
                    requests = t.requests + 1,
                    errors = t.errors + EXCLUDED.errors,
                    prompt_tokens = t.prompt_tokens + EXCLUDED.prompt_tokens,
                    completion_tokens = t.completion_tokens + EXCLUDED.completion_tokens,
                    total_tokens = t.total_tokens + EXCLUDED.total_tokens,
                    last_request_at = GREATEST(t.last_request_at, EXCLUDED.last_request_at)""")
                .execute(Tuple.from(List.of(usage.projectId(), usage.model(), usage.failed() ? 1L : 0L,
                        usage.promptTokens(), usage.completionTokens(), usage.promptTokens() + usage.completionTokens(),
                        usage.at())))
                .chain(() -> addToDay(tx, usage));
    }

    private static Uni<Void> addToDay(SqlClient tx, Usage usage) {
        return tx.preparedQuery("""
                INSERT INTO inference.usage_daily AS d (project_id, model, day, requests, errors, prompt_tokens,
                        completion_tokens, total_tokens)
                VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
                ON CONFLICT (project_id, day, model) DO UPDATE SET
                    requests = d.requests + 1,
                    errors = d.errors + EXCLUDED.errors,
                    prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens,
                    completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens,
                    total_tokens = d.total_tokens + EXCLUDED.total_tokens""")
                .execute(Tuple.from(List.of(usage.projectId(), usage.model(), usage.at().withOffsetSameInstant(ZoneOffset.UTC).toLocalDate(), usage.failed() ? 1L : 0L,
                        usage.promptTokens(), usage.completionTokens(), usage.promptTokens() + usage.completionTokens())))
                .replaceWithVoid();
    }

    /** The project's usage per UTC day and model from {@code from} to {@code to}, both included, by day then model. */
    public Uni<List<DailyUsage>> daily(String projectId, LocalDate from, LocalDate to) {
        return pool.preparedQuery("""
                SELECT day, model, requests, errors, prompt_tokens, completion_tokens, total_tokens
                FROM inference.usage_daily WHERE project_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, model""")
                .execute(Tuple.of(projectId, from, to))
                .map(rows -> {
                    List<DailyUsage> days = new ArrayList<>();
                    rows.forEach(row -> days.add(new DailyUsage(row.getLocalDate("day"), row.getString("model"), row.getLong("requests"),
                            row.getLong("errors"), row.getLong("prompt_tokens"), row.getLong("completion_tokens"),
                            row.getLong("total_tokens"))));
                    return days;
                });
    }

    public Uni<List<UsageTotal>> forProject(String projectId) {
        return pool.preparedQuery("""
                SELECT project_id, model, requests, errors, prompt_tokens, completion_tokens, total_tokens,
                       last_request_at
                FROM inference.usage_totals WHERE project_id = $1 ORDER BY model""")
                .execute(Tuple.of(projectId))
                .map(rows -> {
                    List<UsageTotal> totals = new ArrayList<>();
                    rows.forEach(row -> totals.add(toTotal(row)));
                    return totals;
                });
    }

    private static UsageTotal toTotal(Row row) {
        return new UsageTotal(row.getString("project_id"), row.getString("model"), row.getLong("requests"),
                row.getLong("errors"), row.getLong("prompt_tokens"), row.getLong("completion_tokens"),
                row.getLong("total_tokens"), row.getOffsetDateTime("last_request_at").toEpochSecond());
    }
}
