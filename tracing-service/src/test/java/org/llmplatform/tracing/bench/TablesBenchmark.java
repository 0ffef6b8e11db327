package org.llmplatform.tracing.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.tracing.digest.Digests.Canonical;
import org.llmplatform.tracing.digest.Digests;

/**
 * {@code table/create} of 100,000 rows of about 200 bytes and {@code table/query_stream} of them,
 * each against the same rows written and read straight through JDBC (a batched insert, a plain
 * select) in the same run; then {@code refs/read_batch} of 1,000 refs to distinct objects. Run with
 * {@code bench/tables.sh}; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class TablesBenchmark extends PackagedServiceBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROWS = Integer.getInteger("bench.rows", 100_000);
    private static final int REF_RUNS = Integer.getInteger("bench.refRuns", 30);
    private static final int JDBC_BATCH = 5_000;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void tablesAndRefs() throws Exception {
        String user = TestIdentities.unique("tbench");
        String key = TestIdentities.userWithKey(user);
        tables(user + "/tables", key);
        refs(user + "/refs", key);
    }

    private void tables(String project, String key) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", i);
            row.put("input", "What is the sum of " + i + " and " + (i * 7 % 1000) + "? Answer with a number only, please.");
            row.put("target", String.valueOf(i + i * 7 % 1000));
            row.put("score", i * 0.25);
            row.put("tags", List.of("bench", "row" + (i % 10)));
            row.put("source", "synthetic arithmetic set, version 1");
            rows.add(row);
        }
        List<Canonical> canonical = new ArrayList<>(ROWS);
        for (Map<String, Object> row : rows) {
            canonical.add(Digests.canonical(JSON.valueToTree(row)));
        }
        double averageBytes = canonical.stream().mapToInt(c -> c.json().length()).average().orElse(0);

        post("/table/create", key, Map.of("table", Map.of("project_id", project + "-warmup", "rows", rows.subList(0, ROWS / 10))));
        directInsert(canonical.subList(0, ROWS / 10), "warmup");

        byte[] body = JSON.writeValueAsBytes(Map.of("table", Map.of("project_id", project, "rows", rows)));
        long start = System.nanoTime();
        JsonNode created = JSON.readTree(post("/table/create", key, body));
        double serviceSeconds = (System.nanoTime() - start) / 1e9;
        String digest = created.get("digest").asText();
        start = System.nanoTime();
        directInsert(canonical, "measured");
        double directSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("BENCH table/create: %d rows of %.0f B in %.2f s = %.0f rows/s; direct batched JDBC insert %.0f rows/s;"
                + " ratio %.2f%n", ROWS, averageBytes, serviceSeconds, ROWS / serviceSeconds, ROWS / directSeconds,
                directSeconds / serviceSeconds);

        start = System.nanoTime();
        long streamed = stream(key, Map.of("project_id", project, "digest", digest));
        double streamSeconds = (System.nanoTime() - start) / 1e9;
        start = System.nanoTime();
        long selected = directSelect();
        double selectSeconds = (System.nanoTime() - start) / 1e9;
        if (streamed != ROWS || selected != ROWS) {
            throw new AssertionError("streamed " + streamed + " and selected " + selected + " of " + ROWS + " rows");
        }
        System.out.printf("BENCH table/query_stream: %.0f rows/s; direct JDBC select %.0f rows/s; ratio %.2f%n",
                ROWS / streamSeconds, ROWS / selectSeconds, selectSeconds / streamSeconds);
    }

    private void refs(String project, String key) throws Exception {
        List<String> refs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String objectId = "obj" + i;
            JsonNode created = JSON.readTree(post("/obj/create", key, Map.of("obj", Map.of("project_id", project,
                    "object_id", objectId, "val", Map.of("i", i, "text", "object number " + i)))));
            refs.add("weave:///" + project + "/object/" + objectId + ":" + created.get("digest").asText());
        }
        byte[] body = JSON.writeValueAsBytes(Map.of("refs", refs));
        for (int i = 0; i < 5; i++) {
            post("/refs/read_batch", key, body);
        }
        double[] millis = new double[REF_RUNS];
        for (int i = 0; i < REF_RUNS; i++) {
            long start = System.nanoTime();
            JsonNode vals = JSON.readTree(post("/refs/read_batch", key, body)).get("vals");
            millis[i] = (System.nanoTime() - start) / 1e6;
            if (vals.size() != 1000 || vals.get(999).get("i").asInt() != 999) {
                throw new AssertionError("refs/read_batch answered wrongly");
            }
        }
        Arrays.sort(millis);
        System.out.printf("BENCH refs/read_batch of 1000 refs to distinct objects: p50 %.1f ms, p90 %.1f ms (target p50 <= 50 ms)%n",
                millis[REF_RUNS / 2], millis[REF_RUNS * 9 / 10]);
    }

    private String post(String path, String key, Object body) throws Exception {
        byte[] bytes = body instanceof byte[] raw ? raw : JSON.writeValueAsBytes(body);
        HttpResponse<String> response = http.send(request(path, key).POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private long stream(String key, Map<String, Object> body) throws Exception {
        HttpResponse<InputStream> response = http.send(request("/table/query_stream", key)
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        long lines = 0;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            while (reader.readLine() != null) {
                lines++;
            }
        }
        return lines;
    }

    private HttpRequest.Builder request(String path, String key) {
        return HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json");
    }

    /** The same rows, batched into a table shaped like {@code tracing.table_rows}. */
    private static void directInsert(List<Canonical> rows, String project) throws Exception {
        try (Connection connection = database()) {
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE IF NOT EXISTS public.bench_table_rows (project_id text, digest text, val_dump text,"
                        + " PRIMARY KEY (project_id, digest))");
            }
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO public.bench_table_rows VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                int pending = 0;
                for (Canonical row : rows) {
                    insert.setString(1, project);
                    insert.setString(2, row.digest());
                    insert.setString(3, row.json());
                    insert.addBatch();
                    if (++pending == JDBC_BATCH) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    private static long directSelect() throws Exception {
        long rows = 0;
        try (Connection connection = database()) {
            connection.setAutoCommit(false);
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT digest, val_dump FROM public.bench_table_rows WHERE project_id = 'measured'")) {
                select.setFetchSize(1000);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        JSON.readTree(result.getString(2));
                        rows++;
                    }
                }
            }
        }
        return rows;
    }

}
