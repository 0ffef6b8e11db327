package org.llmplatform.inference.limits;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The SQL over {@code inference.limits} and {@code inference.limit_use}. */
@Singleton
public class LimitsStore {

    /** The project's own limits have the key id {@value}. */
    public static final String PROJECT = "";

    /** The limits set for a project ({@code apiKeyId} {@link #PROJECT}) or a key within it. */
    public record SetLimits(String projectId, String apiKeyId, Limits limits, OffsetDateTime updatedAt, String updatedBy) {
    }

    /** One window of one subject's use. */
    public record Counter(String projectId, String apiKeyId, LimitWindow window, Instant start) {
    }

    /** What a counter holds: the requests admitted and the tokens charged in its window, as the replicas wrote them. */
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
                        INSERT INTO inference.limit_use (project_id, api_key_id, window_kind, window_start, requests, tokens,
                                granted_requests, granted_tokens)
                        SELECT $1, '', w.kind, w.start, COALESCE(SUM(d.requests), 0), COALESCE(SUM(d.total_tokens), 0),
                               COALESCE(SUM(d.requests), 0), COALESCE(SUM(d.total_tokens), 0)
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
     * What one replica writes to a counter in one statement: the requests and tokens it used since it last wrote, the
     * tokens it charged past what it had reserved (a debt, added to the reservations whatever the limit), and how
     * many more requests and tokens it would like to reserve, each granted only up to its limit.
     */
    public record Settlement(Counter counter, long usedRequests, long usedTokens, long requestWant, long requestLimit,
            long tokenDebt, long tokenWant, long tokenLimit) {
    }

    /** A counter after a settlement: what all replicas reserved, and what this settlement was granted. */
    public record Settled(Counter counter, long grantedRequests, long grantedTokens, long requestGrant, long tokenGrant) {
    }

    /** Creates the counters' rows where missing (a replica's first settlement of a window). */
    public Uni<Void> ensure(List<Counter> counters) {
        return pool.preparedQuery("""
                INSERT INTO inference.limit_use (project_id, api_key_id, window_kind, window_start)
                SELECT p, k, w, s FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS c(p, k, w, s)
                ON CONFLICT DO NOTHING""")
                .execute(Tuple.of(counters.stream().map(Counter::projectId).toArray(String[]::new),
                        counters.stream().map(Counter::apiKeyId).toArray(String[]::new),
                        counters.stream().map(counter -> counter.window().wireName()).toArray(String[]::new),
                        counters.stream().map(counter -> utc(counter.start())).toArray(OffsetDateTime[]::new)))
                .replaceWithVoid();
    }

    /**
     * Writes the settlements to their (existing) rows in one statement and answers each row's reservations and grants.
     * The rows are locked in key order first, so that two replicas settling the same rows wait rather than deadlock;
     * every replica reserves from the same rows, so together they never reserve more than a limit.
     */
    public Uni<List<Settled>> settle(List<Settlement> settlements) {
        return pool.preparedQuery("""
                WITH c AS (
                    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[],
                            $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])
                        AS c(project_id, api_key_id, window_kind, window_start, used_requests, used_tokens,
                            request_want, request_limit, token_debt, token_want, token_limit)),
                locked AS (
                    SELECT u.project_id, u.api_key_id, u.window_kind, u.window_start FROM inference.limit_use u
                    JOIN c USING (project_id, api_key_id, window_kind, window_start)
                    ORDER BY u.project_id, u.api_key_id, u.window_kind, u.window_start FOR UPDATE OF u)
                UPDATE inference.limit_use u SET
                    requests = u.requests + c.used_requests,
                    tokens = u.tokens + c.used_tokens,
                    last_grant_requests = LEAST(c.request_want, GREATEST(c.request_limit - u.granted_requests, 0)),
                    granted_requests = u.granted_requests
                        + LEAST(c.request_want, GREATEST(c.request_limit - u.granted_requests, 0)),
                    last_grant_tokens = LEAST(c.token_want, GREATEST(c.token_limit - u.granted_tokens - c.token_debt, 0)),
                    granted_tokens = u.granted_tokens + c.token_debt
                        + LEAST(c.token_want, GREATEST(c.token_limit - u.granted_tokens - c.token_debt, 0))
                FROM c, locked l
                WHERE (u.project_id, u.api_key_id, u.window_kind, u.window_start)
                        = (c.project_id, c.api_key_id, c.window_kind, c.window_start)
                    AND (l.project_id, l.api_key_id, l.window_kind, l.window_start)
                        = (c.project_id, c.api_key_id, c.window_kind, c.window_start)
                RETURNING u.project_id, u.api_key_id, u.window_kind, u.window_start, u.granted_requests,
                    u.granted_tokens, u.last_grant_requests, u.last_grant_tokens""")
                .execute(Tuple.from(new Object[] {
                        settlements.stream().map(each -> each.counter().projectId()).toArray(String[]::new),
                        settlements.stream().map(each -> each.counter().apiKeyId()).toArray(String[]::new),
                        settlements.stream().map(each -> each.counter().window().wireName()).toArray(String[]::new),
                        settlements.stream().map(each -> utc(each.counter().start())).toArray(OffsetDateTime[]::new),
                        settlements.stream().map(Settlement::usedRequests).toArray(Long[]::new),
                        settlements.stream().map(Settlement::usedTokens).toArray(Long[]::new),
                        settlements.stream().map(Settlement::requestWant).toArray(Long[]::new),
                        settlements.stream().map(Settlement::requestLimit).toArray(Long[]::new),
                        settlements.stream().map(Settlement::tokenDebt).toArray(Long[]::new),
                        settlements.stream().map(Settlement::tokenWant).toArray(Long[]::new),
                        settlements.stream().map(Settlement::tokenLimit).toArray(Long[]::new)}))
                .map(rows -> {
                    List<Settled> settled = new ArrayList<>();
                    for (Row row : rows) {
                        settled.add(new Settled(counter(row), row.getLong("granted_requests"), row.getLong("granted_tokens"),
                                row.getLong("last_grant_requests"), row.getLong("last_grant_tokens")));
                    }
                    return settled;
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
        return new Count(counter(row), row.getLong("requests"), row.getLong("tokens"));
    }

    private static Counter counter(Row row) {
        return new Counter(row.getString("project_id"), row.getString("api_key_id"),
                LimitWindow.fromWire(row.getString("window_kind")), row.getOffsetDateTime("window_start").toInstant());
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
