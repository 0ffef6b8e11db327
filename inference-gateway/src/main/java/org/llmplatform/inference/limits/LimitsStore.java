package org.llmplatform.inference.limits;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The SQL over {@code inference.limits} and {@code inference.limit_use}. */
@ApplicationScoped
public class LimitsStore {

    /** The project's own limits have the key id {@value}. */
    public static final String PROJECT = "";

    /** The limits set for a project ({@code apiKeyId} {@link #PROJECT}) or a key within it. */
    public record SetLimits(String projectId, String apiKeyId, Limits limits, OffsetDateTime updatedAt, String updatedBy) {
    }

    /** One window of one subject's use. */
    public record Counter(String projectId, String apiKeyId, LimitWindow window, Instant start) {
    }

    /** What a counter holds: the requests it admitted and the tokens charged to it. */
    public record Count(Counter counter, long requests, long tokens) {
    }

    /** A key's use as the console lists it: the counter, and the key's owner and hint when the key is known. */
    public record KeyUse(Count count, String user, String hint) {
    }

    private final Pool pool;

    public LimitsStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<SetLimits>> all() {
        return pool.query("""
                SELECT project_id, api_key_id, requests_per_minute, tokens_per_minute, tokens_per_day, tokens_per_month,
                       updated_at, updated_by FROM inference.limits""")
                .execute().map(LimitsStore::rows);
    }

    public Uni<List<SetLimits>> ofProject(String projectId) {
        return pool.preparedQuery("""
                SELECT project_id, api_key_id, requests_per_minute, tokens_per_minute, tokens_per_day, tokens_per_month,
                       updated_at, updated_by FROM inference.limits WHERE project_id = $1 ORDER BY api_key_id""")
                .execute(Tuple.of(projectId)).map(LimitsStore::rows);
    }

    /**
     * Sets the limits of a project or of a key in it. A project's day and month windows start from what its usage
     * records counted so far in them ({@code usage_daily}, a few hundred milliseconds behind), so that a budget set
     * mid-month counts the whole month; a key's start from the requests counted while a limit of it was in force.
     */
    public Uni<Void> put(String projectId, String apiKeyId, Limits limits, String by, Instant now) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        INSERT INTO inference.limits (project_id, api_key_id, requests_per_minute, tokens_per_minute,
                                tokens_per_day, tokens_per_month, updated_at, updated_by)
                        VALUES ($1, $2, $3, $4, $5, $6, now(), $7)
                        ON CONFLICT (project_id, api_key_id) DO UPDATE SET
                            requests_per_minute = EXCLUDED.requests_per_minute,
                            tokens_per_minute = EXCLUDED.tokens_per_minute,
                            tokens_per_day = EXCLUDED.tokens_per_day,
                            tokens_per_month = EXCLUDED.tokens_per_month,
                            updated_at = now(), updated_by = EXCLUDED.updated_by""")
                .execute(Tuple.from(Arrays.asList(projectId, apiKeyId, limits.requestsPerMinute(),
                        limits.tokensPerMinute(), limits.tokensPerDay(), limits.tokensPerMonth(), by)))
                .chain(() -> PROJECT.equals(apiKeyId) ? tx.preparedQuery("""
                        INSERT INTO inference.limit_use (project_id, api_key_id, window_kind, window_start, requests, tokens)
                        SELECT $1, '', w.kind, w.start, COALESCE(SUM(d.requests), 0), COALESCE(SUM(d.total_tokens), 0)
                        FROM (VALUES ('day', $2::timestamptz), ('month', $3::timestamptz)) AS w(kind, start)
                        LEFT JOIN inference.usage_daily d ON d.project_id = $1 AND d.day >= (w.start AT TIME ZONE 'UTC')::date
                        GROUP BY w.kind, w.start
                        ON CONFLICT DO NOTHING""")
                        .execute(Tuple.of(projectId, utc(LimitWindow.DAY.start(now)), utc(LimitWindow.MONTH.start(now))))
                        .replaceWithVoid() : Uni.createFrom().voidItem()));
    }

    public Uni<Boolean> keyExists(String apiKeyId) {
        return pool.preparedQuery("SELECT 1 FROM identity.api_keys WHERE id = $1").execute(Tuple.of(apiKeyId))
                .map(rows -> rows.size() > 0);
    }

    public Uni<Boolean> delete(String projectId, String apiKeyId) {
        return pool.preparedQuery("DELETE FROM inference.limits WHERE project_id = $1 AND api_key_id = $2")
                .execute(Tuple.of(projectId, apiKeyId)).map(rows -> rows.rowCount() > 0);
    }

    /**
     * Adds one request to each counter and answers what each holds now, in one statement: every replica counts in
     * the same rows, so together they admit no more than a limit. Counters go in key order, so that two requests
     * of one project lock their rows in the same order.
     */
    public Uni<List<Count>> count(List<Counter> counters) {
        return upsert(counters, 1, 0);
    }

    /** Adds a finished request's tokens to each counter. */
    public Uni<List<Count>> charge(List<Counter> counters, long tokens) {
        return upsert(counters, 0, tokens);
    }

    private Uni<List<Count>> upsert(List<Counter> counters, long requests, long tokens) {
        return pool.preparedQuery("""
                INSERT INTO inference.limit_use AS u (project_id, api_key_id, window_kind, window_start, requests, tokens)
                SELECT p, k, w, s, $5, $6 FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS c(p, k, w, s)
                ORDER BY p, k, w, s
                ON CONFLICT (project_id, api_key_id, window_kind, window_start) DO UPDATE SET
                    requests = u.requests + EXCLUDED.requests, tokens = u.tokens + EXCLUDED.tokens
                RETURNING project_id, api_key_id, window_kind, window_start, requests, tokens""")
                .execute(Tuple.of(counters.stream().map(Counter::projectId).toArray(String[]::new),
                        counters.stream().map(Counter::apiKeyId).toArray(String[]::new),
                        counters.stream().map(counter -> counter.window().wireName()).toArray(String[]::new),
                        counters.stream().map(counter -> utc(counter.start())).toArray(OffsetDateTime[]::new),
                        requests, tokens))
                .map(rows -> {
                    List<Count> counts = new ArrayList<>();
                    rows.forEach(row -> counts.add(count(row)));
                    return counts;
                });
    }

    /** The project's and its keys' counters of the windows {@code now} is in, with each key's owner and hint. */
    public Uni<List<KeyUse>> use(String projectId, Instant now) {
        return pool.preparedQuery("""
                SELECT u.project_id, u.api_key_id, u.window_kind, u.window_start, u.requests, u.tokens,
                       k.user_name, k.hint
                FROM inference.limit_use u LEFT JOIN identity.api_keys k ON k.id = u.api_key_id
                WHERE u.project_id = $1 AND (u.window_kind, u.window_start) IN (('minute', $2), ('day', $3), ('month', $4))
                ORDER BY u.api_key_id, u.window_kind""")
                .execute(Tuple.of(projectId, utc(LimitWindow.MINUTE.start(now)), utc(LimitWindow.DAY.start(now)),
                        utc(LimitWindow.MONTH.start(now))))
                .map(rows -> {
                    List<KeyUse> use = new ArrayList<>();
                    rows.forEach(row -> use.add(new KeyUse(count(row), row.getString("user_name"), row.getString("hint"))));
                    return use;
                });
    }

    private static Count count(Row row) {
        return new Count(new Counter(row.getString("project_id"), row.getString("api_key_id"),
                LimitWindow.fromWire(row.getString("window_kind")), row.getOffsetDateTime("window_start").toInstant()),
                row.getLong("requests"), row.getLong("tokens"));
    }

    private static List<SetLimits> rows(RowSet<Row> rows) {
        List<SetLimits> limits = new ArrayList<>();
        for (Row row : rows) {
            limits.add(new SetLimits(row.getString("project_id"), row.getString("api_key_id"),
                    new Limits(row.getLong("requests_per_minute"), row.getLong("tokens_per_minute"),
                            row.getLong("tokens_per_day"), row.getLong("tokens_per_month")),
                    row.getOffsetDateTime("updated_at"), row.getString("updated_by")));
        }
        return limits;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
