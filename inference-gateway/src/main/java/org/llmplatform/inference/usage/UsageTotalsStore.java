package org.llmplatform.inference.usage;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Singleton;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The SQL over {@code inference.usage_requests}, {@code inference.usage_totals} and {@code inference.usage_daily}. */
@Singleton
public class UsageTotalsStore {

    /** One completion to add to its project's and model's totals. */
    public record Usage(String requestId, String projectId, String model, long promptTokens,
            long completionTokens, boolean failed, OffsetDateTime at) {
    }

    private final Pool pool;

    public UsageTotalsStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Adds every usage whose request id was not counted before, in one transaction: a poll of the usage
     * topic costs two statements, not two per record. A request id that occurs twice (a redelivery, in
     * this batch or an earlier one) is counted once.
     */
    public Uni<Void> addAll(List<Usage> usages) {
        if (usages.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] requestIds = usages.stream().map(Usage::requestId).toArray(String[]::new);
        return pool.withTransaction(tx -> tx
                .preparedQuery("""
                        INSERT INTO inference.usage_requests (request_id) SELECT unnest($1::text[])
                        ON CONFLICT DO NOTHING RETURNING request_id""")
                .execute(Tuple.of(requestIds))
                .flatMap(inserted -> {
                    Set<String> uncounted = new HashSet<>();
                    inserted.forEach(row -> uncounted.add(row.getString(0)));
                    List<Usage> fresh = usages.stream().filter(usage -> uncounted.remove(usage.requestId())).toList();
                    return addToTotals(tx, fresh).chain(() -> addToDays(tx, fresh));
                }));
    }

    /**
     * One row per project and model (a statement may update a row once), in key order so that two
     * replicas counting overlapping projects take the rows' locks in the same order.
     */
    private static Uni<Void> addToTotals(SqlClient tx, List<Usage> fresh) {
        if (fresh.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<TotalKey, Sum> sums = new TreeMap<>(Comparator.comparing(TotalKey::projectId).thenComparing(TotalKey::model));
        fresh.forEach(usage -> sums.computeIfAbsent(new TotalKey(usage.projectId(), usage.model()), key -> new Sum()).add(usage));
        List<Object> columns = new ArrayList<>();
        columns.add(sums.keySet().stream().map(TotalKey::projectId).toArray(String[]::new));
        columns.add(sums.keySet().stream().map(TotalKey::model).toArray(String[]::new));
        columns.addAll(counts(sums.values()));
        columns.add(sums.values().stream().map(sum -> sum.last).toArray(OffsetDateTime[]::new));
        return tx.preparedQuery("""
                INSERT INTO inference.usage_totals AS t (project_id, model, requests, errors, prompt_tokens,
                        completion_tokens, total_tokens, last_request_at)
                SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[],
                        $7::bigint[], $8::timestamptz[])
                ON CONFLICT (project_id, model) DO UPDATE SET
                    requests = t.requests + EXCLUDED.requests,
                    errors = t.errors + EXCLUDED.errors,
                    prompt_tokens = t.prompt_tokens + EXCLUDED.prompt_tokens,
                    completion_tokens = t.completion_tokens + EXCLUDED.completion_tokens,
                    total_tokens = t.total_tokens + EXCLUDED.total_tokens,
                    last_request_at = GREATEST(t.last_request_at, EXCLUDED.last_request_at)""")
                .execute(Tuple.from(columns))
                .replaceWithVoid();
    }

    /** The same sums per UTC day, in key order like the totals. */
    private static Uni<Void> addToDays(SqlClient tx, List<Usage> fresh) {
        if (fresh.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<DayKey, Sum> sums = new TreeMap<>(Comparator.comparing(DayKey::projectId).thenComparing(DayKey::day)
                .thenComparing(DayKey::model));
        fresh.forEach(usage -> sums.computeIfAbsent(new DayKey(usage.projectId(),
                usage.at().withOffsetSameInstant(ZoneOffset.UTC).toLocalDate(), usage.model()), key -> new Sum()).add(usage));
        List<Object> columns = new ArrayList<>();
        columns.add(sums.keySet().stream().map(DayKey::projectId).toArray(String[]::new));
        columns.add(sums.keySet().stream().map(DayKey::day).toArray(LocalDate[]::new));
        columns.add(sums.keySet().stream().map(DayKey::model).toArray(String[]::new));
        columns.addAll(counts(sums.values()));
        return tx.preparedQuery("""
                INSERT INTO inference.usage_daily AS d (project_id, day, model, requests, errors, prompt_tokens,
                        completion_tokens, total_tokens)
                SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
                        $7::bigint[], $8::bigint[])
                ON CONFLICT (project_id, day, model) DO UPDATE SET
                    requests = d.requests + EXCLUDED.requests,
                    errors = d.errors + EXCLUDED.errors,
                    prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens,
                    completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens,
                    total_tokens = d.total_tokens + EXCLUDED.total_tokens""")
                .execute(Tuple.from(columns))
                .replaceWithVoid();
    }

    /** The requests, errors, prompt, completion and total tokens of the sums, one array each, as unnest takes them. */
    private static List<Long[]> counts(Collection<Sum> sums) {
        List<Long[]> columns = List.of(new Long[sums.size()], new Long[sums.size()], new Long[sums.size()],
                new Long[sums.size()], new Long[sums.size()]);
        int row = 0;
        for (Sum sum : sums) {
            columns.get(0)[row] = sum.requests;
            columns.get(1)[row] = sum.errors;
            columns.get(2)[row] = sum.promptTokens;
            columns.get(3)[row] = sum.completionTokens;
            columns.get(4)[row] = sum.promptTokens + sum.completionTokens;
            row++;
        }
        return columns;
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

    private record TotalKey(String projectId, String model) {
    }

    private record DayKey(String projectId, LocalDate day, String model) {
    }

    /** What the fresh usages of one project and model add up to. */
    private static final class Sum {
        private long requests;
        private long errors;
        private long promptTokens;
        private long completionTokens;
        private OffsetDateTime last;

        void add(Usage usage) {
            requests++;
            errors += usage.failed() ? 1 : 0;
            promptTokens += usage.promptTokens();
            completionTokens += usage.completionTokens();
            last = last == null || usage.at().isAfter(last) ? usage.at() : last;
        }
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
