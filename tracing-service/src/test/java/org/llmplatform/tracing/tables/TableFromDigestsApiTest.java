package org.llmplatform.tracing.tables;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /table/create_from_digests}: a table of stored rows by their digests, as Weave's server makes it. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class TableFromDigestsApiTest {

    /** The rows {"a": 1}, {"a": 2}, {"a": 3} and the reference's table digests (docs/tracing-service.md#digests). */
    private static final String A1 = "XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA";
    private static final String A2 = "5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4";
    private static final String A3 = "d5WZrervY13uKxMJ88Ee4v7ooyl6XWllJrroyQKctAg";
    private static final String TABLE_A1_A2_A3 = "78802ba91492cc4e372040905787ee4f9d3693167b56a93c9e64a728c3f0eadc";
    private static final String TABLE_A3_A1_A2 = "9a12a68d2ac49af097df55dd44efd61c6695a57a9e8f7a0c14bd6b049a33e6fb";
    private static final String TABLE_A1_A2 = "1c95cdc46a75d6e7e971986a80adfcd676dd22f2222a3405c7743f3db8df6785";
    private static final String EMPTY_TABLE = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private TraceClient client;

    @BeforeEach
    void threeStoredRows() {
        client = new TraceClient("table-digests");
        client.post("/table/create", Map.of("table", Map.of("project_id", client.project,
                "rows", List.of(Map.of("a", 1), Map.of("a", 2), Map.of("a", 3))))).statusCode(200);
    }

    @Test
    void storedRowsMakeANewTableInTheGivenOrder() {
        fromDigests(List.of(A3, A1, A2), null).statusCode(200).body("digest", equalTo(TABLE_A3_A1_A2)).body("size()", equalTo(1));
        List<Map<String, Object>> rows = client.post("/table/query", Map.of("project_id", client.project,
                "digest", TABLE_A3_A1_A2)).statusCode(200).extract().path("rows");
        assertEquals(List.of(Map.of("a", 3), Map.of("a", 1), Map.of("a", 2)), rows.stream().map(row -> row.get("val")).toList());
        assertEquals(List.of(0, 1, 2), rows.stream().map(row -> row.get("original_index")).toList());
    }

    @Test
    void theDigestIsTheOneTableCreateGivesTheSameRows() {
        fromDigests(List.of(A1, A2, A3), null).statusCode(200).body("digest", equalTo(TABLE_A1_A2_A3));
        fromDigests(List.of(A1, A2, A3), null).statusCode(200).body("digest", equalTo(TABLE_A1_A2_A3));
        fromDigests(List.of(), null).statusCode(200).body("digest", equalTo(EMPTY_TABLE));
    }

    @Test
    void anExpectedDigestMustBeTheTablesElseNothingIsStored() {
        fromDigests(List.of(A1, A2), TABLE_A1_A2).statusCode(200).body("digest", equalTo(TABLE_A1_A2));
        fromDigests(List.of(A3, A1, A2), TABLE_A1_A2).statusCode(409)
                .body("reason", equalTo("Client table (3 rows) digest " + TABLE_A1_A2 + " != server digest " + TABLE_A3_A1_A2));
        client.post("/table/query_stats_batch", Map.of("project_id", client.project, "digests", List.of(TABLE_A3_A1_A2)))
                .statusCode(200).body("tables.size()", equalTo(0));
    }

    @Test
    void rowDigestsAreNotLookedUpAsTheReferenceDoesNot() {
        fromDigests(List.of(A1, "unknown-row"), null).statusCode(200);
    }

    @Test
    void badRequestsAreRefusedNamingTheField() {
        client.post("/table/create_from_digests", Map.of("project_id", client.project)).statusCode(422)
                .body("detail[0].loc", contains("body", "row_digests"));
        fromDigests(Arrays.asList(A1, null), null).statusCode(422).body("detail[0].loc", contains("body", "row_digests", 1));
        client.post("/table/create_from_digests", Map.of("project_id", client.project, "row_digests", List.of(), "rows", 1))
                .statusCode(422).body("detail[0].loc", contains("body", "rows"));
        new TraceClient("table-digests-stranger").post("/table/create_from_digests",
                Map.of("project_id", client.project, "row_digests", 5)).statusCode(403);
    }

    private io.restassured.response.ValidatableResponse fromDigests(List<String> rowDigests, String expectedDigest) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", client.project);
        body.put("row_digests", rowDigests);
        if (expectedDigest != null) {
            body.put("expected_digest", expectedDigest);
        }
        return client.post("/table/create_from_digests", body);
    }
}
