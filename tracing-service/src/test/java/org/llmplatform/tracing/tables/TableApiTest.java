package org.llmplatform.tracing.tables;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class TableApiTest {

    private static final String A1 = "XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA";
    private static final String A2 = "5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4";
    private static final String A3 = "d5WZrervY13uKxMJ88Ee4v7ooyl6XWllJrroyQKctAg";

    /** Three insert chunks; the 100,000-row table is exercised by the benchmark (bench/tables.sh). */
    private static final int ROWS = 12_000;

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("tables");
    }

    private ValidatableResponse create(List<?> rows) {
        return client.post("/table/create", Map.of("table", Map.of("project_id", client.project, "rows", rows)));
    }

    private String createDigest(List<?> rows) {
        return create(rows).statusCode(200).extract().path("digest");
    }

    private List<Map<String, Object>> rows(String digest, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("project_id", client.project);
        body.put("digest", digest);
        return client.post("/table/query", body).statusCode(200).extract().path("rows");
    }

    private ValidatableResponse update(String base, List<?> updates) {
        return client.post("/table/update", Map.of("project_id", client.project, "base_digest", base, "updates", updates));
    }

    @Test
    void tableAndRowDigestsAreTheReferenceDigests() {
        create(List.of(Map.of("a", 1), Map.of("a", 2), Map.of("a", 3))).statusCode(200)
                .body("digest", equalTo("78802ba91492cc4e372040905787ee4f9d3693167b56a93c9e64a728c3f0eadc"))
                .body("row_digests", equalTo(List.of(A1, A2, A3)));
        create(List.of(Map.of("input", "1 + 2", "target", 3), Map.of("input", "2**4", "target", 15))).statusCode(200)
                .body("digest", equalTo("54328e3432373373f6fd088bbdb6f173f5707aaba74a9850ca8c73a67166b99b"));
        create(List.of()).statusCode(200)
                .body("digest", equalTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        create(List.of(Map.of("a", 1), Map.of("a", 2), Map.of("a", 3))).statusCode(200)
                .body("digest", equalTo("78802ba91492cc4e372040905787ee4f9d3693167b56a93c9e64a728c3f0eadc"));
    }

    @Test
    void rowsComeBackInTableOrderWithTheirPositions() {
        String digest = createDigest(List.of(Map.of("a", 3), Map.of("a", 1), Map.of("a", 2), Map.of("a", 1)));
        List<Map<String, Object>> rows = rows(digest, Map.of());
        assertEquals(List.of(A3, A1, A2, A1), rows.stream().map(r -> r.get("digest")).toList());
        assertEquals(List.of(0, 1, 2, 3), rows.stream().map(r -> r.get("original_index")).toList());
        assertEquals(Map.of("a", 3), rows.get(0).get("val"));
        assertEquals(List.of(1, 3), rows(digest, Map.of("filter", Map.of("row_digests", List.of(A1))))
                .stream().map(r -> r.get("original_index")).toList());
        assertEquals(List.of(1, 2), rows(digest, Map.of("limit", 2, "offset", 1)).stream().map(r -> r.get("original_index")).toList());
        client.post("/table/query_stats", Map.of("project_id", client.project, "digest", digest)).statusCode(200)
                .body("count", equalTo(4));
        assertEquals(List.of(), rows("0".repeat(64), Map.of()));
    }

    @Test
    void rowsAreSortedByFieldsOfTheirValues() {
        String digest = createDigest(List.of(Map.of("x", Map.of("n", 10), "s", "b"), Map.of("x", Map.of("n", 9), "s", "a"),
                Map.of("s", "c"), Map.of("x", Map.of("n", "text"), "s", "a")));
        assertEquals(List.of(1, 0, 3, 2), positions(rows(digest, Map.of("sort_by", List.of(Map.of("field", "x.n", "direction", "asc"))))));
        assertEquals(List.of(0, 1, 3, 2), positions(rows(digest, Map.of("sort_by", List.of(Map.of("field", "x.n", "direction", "desc"))))));
        assertEquals(List.of(1, 3, 0, 2), positions(rows(digest, Map.of("sort_by",
                List.of(Map.of("field", "s", "direction", "asc"), Map.of("field", "x.n", "direction", "desc"))))));
        assertEquals(List.of(0), positions(rows(digest, Map.of("sort_by", List.of(Map.of("field", "s", "direction", "desc")),
                "offset", 1, "limit", 1))));
        for (String field : List.of("", ".a", "a.", "a..b")) {
            client.post("/table/query", Map.of("project_id", client.project, "digest", digest,
                    "sort_by", List.of(Map.of("field", field, "direction", "asc")))).statusCode(400)
                    .body("reason", matchesPattern("(Sort field cannot be empty|Invalid sort field .*)"));
        }
    }

    @Test
    void theStreamAnswersTheSameRowsAsJsonLines() {
        String digest = createDigest(List.of(Map.of("a", 1), Map.of("a", 2)));
        Response response = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "digest", digest)).post("/table/query_stream");
        assertEquals(200, response.statusCode());
        assertEquals("application/jsonl", response.contentType());
        List<Map<String, Object>> lines = TraceClient.parseLines(response.asString());
        assertEquals(List.of(A1, A2), lines.stream().map(r -> r.get("digest")).toList());
        assertEquals(List.of(0, 1), positions(lines));
    }

    @Test
    void updatesAppendPopAndInsertIntoANewTable() {
        String base = createDigest(List.of(Map.of("a", 1), Map.of("a", 2)));
        update(base, List.of(Map.of("append", Map.of("row", Map.of("a", 3))))).statusCode(200)
                .body("digest", equalTo("78802ba91492cc4e372040905787ee4f9d3693167b56a93c9e64a728c3f0eadc"))
                .body("updated_row_digests", equalTo(List.of(A3)));
        update(base, List.of(Map.of("pop", Map.of("index", 1)), Map.of("append", Map.of("row", Map.of("a", 3))))).statusCode(200)
                .body("digest", equalTo("b3250d6949db5bc0d8fdd92131ed6366cc6beb14d22ad8a56dde741dd6a27069"))
                .body("updated_row_digests", equalTo(List.of(A2, A3)));
        String inserted = update(base, List.of(Map.of("insert", Map.of("index", 0, "row", Map.of("a", 3))))).statusCode(200)
                .body("digest", equalTo("9a12a68d2ac49af097df55dd44efd61c6695a57a9e8f7a0c14bd6b049a33e6fb"))
                .extract().path("digest");
        assertEquals(List.of(A3, A1, A2), rows(inserted, Map.of()).stream().map(r -> r.get("digest")).toList());
        assertEquals(List.of(A1, A2), rows(base, Map.of()).stream().map(r -> r.get("digest")).toList());
    }

    @Test
    void badUpdatesChangeNothing() {
        String base = createDigest(List.of(Map.of("a", 1)));
        update(base, List.of(Map.of("pop", Map.of("index", 1)))).statusCode(400).body("reason", matchesPattern("Index out of range.*"));
        update(base, List.of(Map.of("pop", Map.of("index", -1)))).statusCode(400);
        update(base, List.of(Map.of("append", Map.of("row", Map.of("a", 9))), Map.of("insert", Map.of("index", 3, "row", Map.of("a", 2)))))
                .statusCode(400).body("reason", matchesPattern("Index out of range.*"));
        update(base, List.of(Map.of("append", Map.of("row", 5)))).statusCode(400);
        update(base, List.of(Map.of())).statusCode(422);
        update(base, List.of(Map.of("pop", Map.of("index", 0), "append", Map.of("row", Map.of("a", 2))))).statusCode(422);
        update(base, List.of(Map.of("bogus", 1))).statusCode(422);
        update("f".repeat(64), List.of(Map.of("pop", Map.of("index", 0)))).statusCode(404)
                .body("reason", equalTo("Table " + client.project + ":" + "f".repeat(64) + " not found"));
        client.post("/table/query_stats_batch", Map.of("project_id", client.project, "digests", List.of(base))).statusCode(200)
                .body("tables.size()", equalTo(1));
        create(List.of(Map.of("a", 1), "not an object")).statusCode(400);
        create(List.of(Map.of("a", 9))).statusCode(200);
        client.post("/table/create", Map.of("table", Map.of("project_id", client.project, "rows", List.of()), "x", 1)).statusCode(422);
        client.post("/table/query", Map.of("project_id", client.project, "digest", base, "limit", -1)).statusCode(400);
        client.post("/table/query_stats", Map.of("project_id", client.project, "digest", "e".repeat(64))).statusCode(404);
    }

    @Test
    void statsOfSeveralTablesLeaveOutUnknownDigests() {
        String small = createDigest(List.of(Map.of("a", 1)));
        String large = createDigest(List.of(Map.of("a", 1), Map.of("a", 2), Map.of("a", 1)));
        List<Map<String, Object>> tables = client.post("/table/query_stats_batch", Map.of("project_id", client.project,
                "digests", List.of(large, "0".repeat(64), small), "include_storage_size", true)).statusCode(200)
                .extract().path("tables");
        assertEquals(List.of(Map.of("count", 3, "digest", large, "storage_size_bytes", 3 * "{\"a\": 1}".length()),
                Map.of("count", 1, "digest", small, "storage_size_bytes", "{\"a\": 1}".length())), tables);
        client.post("/table/query_stats_batch", Map.of("project_id", client.project, "digests", List.of(small))).statusCode(200)
                .body("tables[0]", equalTo(Map.of("count", 1, "digest", small)));
    }

    @Test
    void aTableOfManyChunksIsCreatedAndRead() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(Map.of("i", i, "text", "row number " + i));
        }
        String digest = createDigest(rows);
        client.post("/table/query_stats", Map.of("project_id", client.project, "digest", digest)).statusCode(200)
                .body("count", equalTo(ROWS));
        List<Map<String, Object>> tail = rows(digest, Map.of("offset", ROWS - 2));
        assertEquals(List.of(ROWS - 2, ROWS - 1), positions(tail));
        assertEquals(ROWS - 1, ((Map<?, ?>) tail.get(1).get("val")).get("i"));
        Response stream = given().header("Authorization", "Bearer " + client.key).contentType(ContentType.JSON)
                .body(Map.of("project_id", client.project, "digest", digest)).post("/table/query_stream");
        assertEquals(ROWS, stream.asString().split("\n").length);
    }

    private static List<Object> positions(List<Map<String, Object>> rows) {
        return rows.stream().map(r -> r.get("original_index")).toList();
    }
}
