package org.llmplatform.console.pages;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The calls page of a project of {@code bench.calls} calls (default 1,000,000 over the last days; a tenth of them trace
 * roots, one in five hundred failed) in headless Chromium, through the console and the packaged tracing-service: time
 * to the first 50 rows on screen and to the total, in the default order and sorted by tokens and by cost (a seventh of
 * the calls without usage); then the first content of the Evaluations page, the dashboard (a day, 30 days) and the
 * calls table opened by a saved view's link. The calls are written straight into PostgreSQL (as the tracing-service's own
 * CallsBenchmark does for its query figures): the measured part is reading. Run with
 * {@code -Dbench=true -Dtest=FirstPageBenchmark}; prints BENCH lines.
 */
@QuarkusTest
@QuarkusTestResource(value = TracingServiceProcess.class, restrictToAnnotatedClass = true)
@EnabledIfSystemProperty(named = "bench", matches = "true")
class FirstPageBenchmark {

    private static final int CALLS = Integer.getInteger("bench.calls", 1_000_000);

    @TestHTTPResource("/")
    URL base;

    @Test
    void firstPageOfALargeProject() throws Exception {
        String user = TestIdentities.unique("bench");
        String key = AdminApi.userWithKey(user);
        String project = user + "/large";
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        long began = System.nanoTime();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = db.createStatement()) {
            statement.execute(("INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at,"
                    + " ended_at, attributes, inputs, output, summary, svc_user_id, exception)"
                    + " SELECT '%1$s', lpad(g::text, 8, '0'), 't' || (g / 10), CASE WHEN g %% 10 = 0 THEN NULL"
                    + " ELSE lpad((g - g %% 10)::text, 8, '0') END, 'weave:///%1$s/op/op_' || (g %% 5) || ':abc',"
                    + " now() - (%3$d - g) * interval '1 second', now() - (%3$d - g) * interval '1 second'"
                    + " + interval '250 milliseconds', '{}', jsonb_build_object('x', g %% 100, 'text', 'some input text'),"
                    + " '{\"y\": 1}', CASE WHEN g %% 7 = 0 THEN '{}' ELSE jsonb_build_object('usage', jsonb_build_object("
                    + "'gpt-4o-mini', jsonb_build_object('requests', 1, 'prompt_tokens', g %% 1000, 'completion_tokens',"
                    + " g %% 300, 'total_tokens', g %% 1000 + g %% 300))) END, '%2$s',"
                    + " CASE WHEN g %% 500 = 0 THEN 'ValueError: the input was refused' END"
                    + " FROM generate_series(1, %3$d) g").formatted(project, user, CALLS));
            statement.execute("ANALYZE tracing.calls");
        }
        System.out.printf("BENCH loaded %,d calls in %.1f s%n", CALLS, (System.nanoTime() - began) / 1e9);

        long[] projectsMicros = new long[5];
        for (int i = 0; i < projectsMicros.length; i++) {
            long asked = System.nanoTime();
            given().header("Authorization", "Bearer " + key).get("/projects").then().statusCode(200);
            projectsMicros[i] = (System.nanoTime() - asked) / 1000;
        }
        java.util.Arrays.sort(projectsMicros);
        System.out.printf("BENCH GET /projects (the project list's call count): median %.1f ms%n", projectsMicros[2] / 1000.0);

        // The Op filter's list: calls/op_names skips through the op index; the baseline is a plain DISTINCT over the
        // project's calls, run on the same database in the same run.
        long[] opNamesMicros = new long[5];
        List<String> opNames = List.of();
        for (int i = 0; i < opNamesMicros.length; i++) {
            long asked = System.nanoTime();
            opNames = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                    .body(Map.of("project_id", project)).post("/calls/op_names").then().statusCode(200)
                    .extract().jsonPath().getList("op_names");
            opNamesMicros[i] = (System.nanoTime() - asked) / 1000;
        }
        java.util.Arrays.sort(opNamesMicros);
        assertEquals(5, opNames.size(), "the seeded calls run op_0 … op_4");
        long[] distinctMicros = new long[3];
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = db.createStatement()) {
            for (int i = 0; i < distinctMicros.length; i++) {
                long asked = System.nanoTime();
                statement.executeQuery(("SELECT DISTINCT op_name FROM tracing.calls WHERE project_id = '%s'"
                        + " AND started_at IS NOT NULL AND deleted_at IS NULL").formatted(project)).close();
                distinctMicros[i] = (System.nanoTime() - asked) / 1000;
            }
        }
        java.util.Arrays.sort(distinctMicros);
        System.out.printf("BENCH POST /calls/op_names (%d names of %,d calls): median %.1f ms over HTTP;"
                + " baseline SELECT DISTINCT in PostgreSQL alone: median %.1f ms%n", opNames.size(), CALLS,
                opNamesMicros[2] / 1000.0, distinctMicros[1] / 1000.0);

        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(Map.of("project_id", project,
                "costs", Map.of("gpt-4o-mini", Map.of("prompt_token_cost", 0.00000015, "completion_token_cost", 0.0000006,
                        "effective_date", "2020-01-01T00:00:00Z")))).post("/cost/create").then().statusCode(200);

        String origin = base.toString().replaceAll("/$", "");
        measure(origin, key, project, "10", "");
        measure(origin, key, project, "5", "sort=tokens&dir=desc");
        measure(origin, key, project, "5", "sort=cost&dir=desc");

        // The pages of a Weave user's day on the same project: its evaluation runs (forty among the million calls), its
        // dashboard over the default day and over 30 days (all of them), and the calls table opened by a saved view's
        // link (the errors, one trace in fifty, with input and output columns).
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = db.createStatement()) {
            statement.execute(("INSERT INTO tracing.calls (project_id, id, trace_id, parent_id, op_name, started_at, ended_at,"
                    + " attributes, inputs, output, summary, svc_user_id) SELECT '%1$s', 'eval-' || n, 'eval-' || n, NULL,"
                    + " 'weave:///%1$s/op/Evaluation.evaluate:abc', now() - n * interval '1 hour',"
                    + " now() - n * interval '1 hour' + interval '40 seconds', '{}', jsonb_build_object('self',"
                    + " 'weave:///%1$s/object/qa-eval:abc', 'model', 'weave:///%1$s/object/model-' || (n %% 4) || ':abc'),"
                    + " jsonb_build_object('exact', jsonb_build_object('true_count', n %% 10, 'true_fraction', (n %% 10) / 10.0),"
                    + " 'model_latency', jsonb_build_object('mean', 0.5)), '{}', '%2$s' FROM generate_series(1, 40) n")
                    .formatted(project, user));
        }
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(Map.of("obj", Map.of(
                "project_id", project, "object_id", "errors", "builtin_object_class", "SavedView", "val", Map.of(
                        "view_type", "traces", "label", "errors", "definition", Map.of(
                                "filter", Map.of("trace_roots_only", true),
                                "query", Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "summary.weave.status"),
                                        Map.of("$literal", "error")))),
                                "sort_by", List.of(Map.of("field", "started_at", "direction", "desc")),
                                "columns", List.of(Map.of("path", List.of("op_name")), Map.of("path", List.of("summary", "weave", "status")),
                                        Map.of("path", List.of("started_at")), Map.of("path", List.of("inputs", "x")),
                                        Map.of("path", List.of("inputs", "text")), Map.of("path", List.of("output", "y"))))))))
                .post("/obj/create").then().statusCode(200);
        String projectPage = "#/p/" + project + "/";
        Process node = new ProcessBuilder("node", "first-content.mjs", origin, key, "5", "1000",
                "Evaluations page (40 runs among " + CALLS + " calls)", projectPage + "evaluations", "table.evaluations tbody tr",
                "Dashboard, last 24 hours", projectPage + "dashboard", ".chart-grid .chart svg",
                "Dashboard, last 30 days (every call)", projectPage + "dashboard?range=30d", ".chart-grid .chart svg",
                // The page draws its rows at once: the first row on screen is the whole page of them.
                "Calls table by a saved view's link (errors: the page of rows)", projectPage + "calls?view=errors",
                "table.calls tbody tr")
                .directory(Path.of("src/test/browser").toFile()).redirectErrorStream(true).start();
        assertTrue(node.waitFor(600, TimeUnit.SECONDS), "the page measurement did not finish");
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, node.exitValue(), output);
        output.lines().filter(line -> line.startsWith("BENCH") || line.startsWith("PAGE ERROR")).forEach(System.out::println);
    }

    private static void measure(String origin, String key, String project, String runs, String sort) throws Exception {
        Process node = new ProcessBuilder("node", "first-page.mjs", origin, key, project, runs, sort)
                .directory(Path.of("src/test/browser").toFile()).redirectErrorStream(true).start();
        assertTrue(node.waitFor(300, TimeUnit.SECONDS), "the page measurement did not finish");
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, node.exitValue(), output);
        output.lines().filter(line -> line.startsWith("BENCH")).forEach(System.out::println);
    }
}
