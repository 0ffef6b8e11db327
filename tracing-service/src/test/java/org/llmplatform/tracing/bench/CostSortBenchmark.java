package org.llmplatform.tracing.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.TraceClient;

/**
 * The console's cost sort, {@code calls/stream_query} of the first 50 trace roots by
 * {@code summary.weave.total_cost} descending, over a project of many roots whose usage names shipped default-priced
 * models, models the project prices (at several dates) and an unpriced one, through the real service. Baseline in the
 * same run and database: the same statement over JDBC with migration V12's price lookup (its functions, read from
 * the V12 migration file, created in a schema of their own), with the default prices and without them, and with
 * the service's current SQL, all without parallel workers as the service's cursor runs them. Run with {@code bench/cost-sort.sh}; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class CostSortBenchmark extends PackagedServiceBenchmark {

    private static final int ROOTS = Integer.getInteger("bench.roots", 100_000);
    private static final int RUNS = Integer.getInteger("bench.runs", 5);
    private static final String[] MODELS = {"gpt-4o", "gpt-4o-mini", "own-model", "unpriced", "claude-3-5-sonnet-20241022"};
    private static final String PAGE = """
            SELECT c.id FROM tracing.calls c
            WHERE c.project_id = ? AND c.started_at IS NOT NULL AND c.deleted_at IS NULL AND c.parent_id IS NULL
            ORDER BY %s DESC NULLS LAST, c.id LIMIT 50""";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void costSort() throws Exception {
        String user = TestIdentities.unique("costsort");
        String key = TestIdentities.userWithKey(user);
        String project = user + "/p";
        for (String price : List.of(
                "{\"own-model\": {\"prompt_token_cost\": 0.001, \"completion_token_cost\": 0.002, \"effective_date\": \"2024-01-01T00:00:00Z\"}}",
                "{\"own-model\": {\"prompt_token_cost\": 0.002, \"completion_token_cost\": 0.003, \"effective_date\": \"2025-02-01T00:00:00Z\"}}",
                "{\"gpt-4o-mini\": {\"prompt_token_cost\": 0.0001, \"completion_token_cost\": 0.0002, \"effective_date\": \"2025-03-01T00:00:00Z\"}}")) {
            send("cost/create", "application/json", key, "{\"project_id\": \"" + project + "\", \"costs\": " + price + "}");
        }
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute(("""
                    INSERT INTO tracing.calls (project_id, id, trace_id, op_name, started_at, ended_at, attributes, inputs,
                        output, summary, svc_user_id)
                    SELECT '%s', lpad(g::text, 8, '0'), 't' || g, 'op', timestamptz '2025-01-01' + g * interval '1 minute',
                        timestamptz '2025-01-01' + g * interval '1 minute' + interval '1 second', '{}', '{}', '{}',
                        jsonb_build_object('usage', jsonb_build_object(('%s'::text[])[1 + g %% %d], jsonb_build_object(
                            'prompt_tokens', g %% 1000, 'completion_tokens', g %% 300, 'requests', 1))), 'bench'
                    FROM generate_series(1, %d) g""").formatted(project, "{" + String.join(",", MODELS) + "}",
                    MODELS.length, ROOTS));
            statement.execute("ANALYZE tracing.calls");
            statement.execute("ANALYZE tracing.llm_token_prices");
            createV12Lookup(statement);
            // The service reads through a cursor, which PostgreSQL never runs with parallel workers: neither do these.
            statement.execute("SET max_parallel_workers_per_gather = 0");
            long defaults = count(db, "SELECT count(*) FROM tracing.llm_token_prices WHERE pricing_level = 'default'");

            List<String> served = null;
            long[] service = new long[RUNS];
            String body = "{\"project_id\": \"" + project + "\", \"filter\": {\"trace_roots_only\": true}, \"limit\": 50,"
                    + " \"sort_by\": [{\"field\": \"summary.weave.total_cost\", \"direction\": \"desc\"}],"
                    + " \"columns\": [\"id\"]}";
            for (int i = 0; i < RUNS; i++) {
                long began = System.nanoTime();
                String lines = send("calls/stream_query", "application/jsonl", key, body);
                service[i] = System.nanoTime() - began;
                served = TraceClient.parseLines(lines).stream().map(call -> (String) call.get("id")).toList();
            }
            String current = "tracing.usage_total_cost(c.started_at, c.summary, (SELECT tracing.price_book(?)))";
            String v12 = "bench_v12.usage_total_cost(c.project_id, c.started_at, c.summary)";
            long[] currentSql = time(db, current, project, served);
            long[] v12WithDefaults = time(db, v12, project, served);
            db.setAutoCommit(false);
            statement.execute("DELETE FROM tracing.llm_token_prices WHERE pricing_level = 'default'"
                    + " AND llm_id NOT IN ('gpt-4o', 'claude-3-5-sonnet-20241022', 'gpt-4o-mini')");
            long[] v12WithoutDefaults = time(db, v12, project, served);
            long[] currentWithoutDefaults = time(db, current, project, served);
            db.rollback();
            db.setAutoCommit(true);

            System.out.printf("BENCH cost sort, first 50 of %,d roots by total_cost desc (%d default prices, p50 of %d"
                    + " runs): calls/stream_query %.0f ms; same SQL over JDBC %.0f ms (%.0f ms with only the 3 defaults"
                    + " the usage names); V12's lookup over JDBC %.0f ms, %.0f ms with only those 3 defaults"
                    + " (before the shipped table)%n", ROOTS, defaults, RUNS, p50(service), p50(currentSql),
                    p50(currentWithoutDefaults), p50(v12WithDefaults), p50(v12WithoutDefaults));
        }
    }

    /** Migration V12's priced_usage and usage_total_cost, as that file defines them, in schema bench_v12. */
    private static void createV12Lookup(Statement statement) throws Exception {
        String v12;
        try (InputStream in = CostSortBenchmark.class.getClassLoader()
                .getResourceAsStream("db/migration/V12__usage_sort_keys.sql")) {
            v12 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        statement.execute("DROP SCHEMA IF EXISTS bench_v12 CASCADE");
        statement.execute("CREATE SCHEMA bench_v12");
        for (String function : List.of("priced_usage", "usage_total_cost")) {
            Matcher definition = Pattern.compile("CREATE FUNCTION tracing\\." + function + "\\(.*?\\$\\$;", Pattern.DOTALL)
                    .matcher(v12);
            if (!definition.find()) {
                throw new IllegalStateException("V12 no longer defines tracing." + function);
            }
            statement.execute(definition.group().replace("FUNCTION tracing.", "FUNCTION bench_v12.")
                    .replace("tracing.priced_usage(", "bench_v12.priced_usage("));
        }
    }

    /** Nanoseconds of each run of the page ordered by this cost expression, checking it is the service's page. */
    private static long[] time(Connection db, String cost, String project, List<String> expected) throws Exception {
        long[] nanos = new long[RUNS];
        try (PreparedStatement page = db.prepareStatement(PAGE.formatted(cost))) {
            for (int p = 1; p <= page.getParameterMetaData().getParameterCount(); p++) {
                page.setString(p, project);
            }
            for (int i = 0; i < RUNS; i++) {
                long began = System.nanoTime();
                List<String> ids = new ArrayList<>();
                try (ResultSet rows = page.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                }
                nanos[i] = System.nanoTime() - began;
                if (expected.size() != 50 || !ids.equals(expected)) {
                    throw new IllegalStateException("the page of " + cost + " is not the service's page");
                }
            }
        }
        return nanos;
    }

    private static long count(Connection db, String sql) throws Exception {
        try (Statement statement = db.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static double p50(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private String send(String path, String accept, String key, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base.toString() + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("Accept", accept).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

}
