package org.llmplatform.tracing.calls;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.anEmptyMap;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallApiTest {

    private static final String STARTED = "2025-01-01T12:00:00Z";
    private static final String ENDED = "2025-01-01T12:00:01.250Z";

    private String user;
    private String key;
    private String project;

    @BeforeEach
    void aUserWithAProject() {
        user = TestIdentities.unique("tracer");
        key = TestIdentities.userWithKey(user);
        project = user + "/calls";
    }

    @Test
    void aStartedAndEndedCallReadsBackWithEveryField() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("inputs", Map.of("x", 1, "model", "weave:///e/p/object/model:abc"));
        start.put("svc_run_id", "run-1");
        post("/call/start", Map.of("start", start)).statusCode(200).body("id", equalTo(id));
        post("/call/end", Map.of("end", end(id, Map.of("c", 5)))).statusCode(200).body("", anEmptyMap());

        read(id).statusCode(200)
                .body("call", aMapWithSize(23))
                .body("call.id", equalTo(id))
                .body("call.project_id", equalTo(project))
                .body("call.op_name", equalTo("my_op"))
                .body("call.display_name", nullValue())
                .body("call.trace_id", equalTo("trace-" + id))
                .body("call.parent_id", nullValue())
                .body("call.started_at", equalTo(STARTED))
                .body("call.ended_at", equalTo("2025-01-01T12:00:01.250000Z"))
                .body("call.attributes", equalTo(Map.of("a", "b")))
                .body("call.inputs.x", equalTo(1))
                .body("call.output", equalTo(Map.of("answer", 42)))
                .body("call.exception", nullValue())
                .body("call.summary.c", equalTo(5))
                .body("call.summary.weave", equalTo(Map.of("status", "success", "latency_ms", 1250, "trace_name", "my_op")))
                .body("call.svc_user_id", equalTo(user))
                .body("call.svc_run_id", equalTo("run-1"))
                .body("call.deleted_at", nullValue())
                .body("call.storage_size_bytes", nullValue())
                .body("call.total_storage_size_bytes", nullValue());
    }

    @Test
    void anEndBeforeItsStartIsKeptUntilTheStartArrives() {
        String id = UUID.randomUUID().toString();
        post("/call/end", Map.of("end", end(id, Map.of()))).statusCode(200);
        read(id).statusCode(200).body("call", nullValue());

        post("/call/start", Map.of("start", start(id))).statusCode(200);
        read(id).statusCode(200)
                .body("call.op_name", equalTo("my_op"))
                .body("call.output.answer", equalTo(42))
                .body("call.summary.weave.status", equalTo("success"));
    }

    @Test
    void anUnknownOrOrphanCallReadsAsNull() {
        read(UUID.randomUUID().toString()).statusCode(200).body("$", hasKey("call")).body("call", nullValue());
    }

    @Test
    void aRunningCallHasNoLatencyAndAnEndedOneNoLongerRuns() {
        String id = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(id))).statusCode(200);
        read(id).statusCode(200)
                .body("call.ended_at", nullValue())
                .body("call.summary", equalTo(Map.of("weave", Map.of("trace_name", "my_op", "status", "running"))));
    }

    @Test
    void aDuplicatedStartKeepsTheFirstValues() {
        String id = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(id))).statusCode(200);
        Map<String, Object> again = start(id);
        again.put("op_name", "other_op");
        again.put("inputs", Map.of("x", 2));
        again.put("parent_id", "late-parent");
        post("/call/start", Map.of("start", again)).statusCode(200).body("id", equalTo(id));

        read(id).statusCode(200)
                .body("call.op_name", equalTo("my_op"))
                .body("call.inputs", equalTo(Map.of("x", 1)))
                .body("call.parent_id", equalTo("late-parent"));
    }

    @Test
    void theLastWrittenDisplayNameWinsAndAnEmptyOneReadsAsNull() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> first = start(id);
        first.put("display_name", "first");
        post("/call/start", Map.of("start", first)).statusCode(200);
        read(id).body("call.display_name", equalTo("first"))
                .body("call.summary.weave.display_name", equalTo("first"))
                .body("call.summary.weave", not(hasKey("trace_name")));

        Map<String, Object> second = start(id);
        second.put("display_name", "second");
        post("/call/start", Map.of("start", second)).statusCode(200);
        post("/call/start", Map.of("start", start(id))).statusCode(200);
        read(id).body("call.display_name", equalTo("second"));

        Map<String, Object> cleared = start(id);
        cleared.put("display_name", "");
        post("/call/start", Map.of("start", cleared)).statusCode(200);
        read(id).body("call.display_name", nullValue()).body("call.summary.weave.trace_name", equalTo("my_op"));
    }

    @Test
    void theOwnerIsTheCallerEvenWhenTheBodyNamesAnother() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("svc_user_id", "mallory");
        start.put("wb_user_id", "mallory");
        post("/call/start", Map.of("start", start)).statusCode(200);
        read(id).body("call.svc_user_id", equalTo(user));
    }

    @Test
    void idsAreGeneratedWhenAbsent() {
        Map<String, Object> start = start(null);
        start.remove("id");
        start.remove("trace_id");
        String uuid = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
        String id = post("/call/start", Map.of("start", start)).statusCode(200)
                .body("id", matchesPattern(uuid))
                .body("trace_id", matchesPattern(uuid))
                .extract().path("id");
        read(id).body("call.id", equalTo(id));
    }

    @Test
    void anUnknownEnvelopeKeyIsA422NamingIt() {
        Map<String, Object> body = new HashMap<>(Map.of("start", start(UUID.randomUUID().toString())));
        body.put("surprise", 1);
        post("/call/start", body).statusCode(422)
                .body("detail[0].type", equalTo("extra_forbidden"))
                .body("detail[0].loc", equalTo(List.of("body", "surprise")));
        post("/call/read", Map.of("project_id", project, "id", "x", "columns", List.of())).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "columns")));
    }

    @Test
    void unknownKeysInsideThePartsAreIgnored() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("future_field", true);
        Map<String, Object> end = end(id, Map.of());
        end.put("display_name", "sent by the TypeScript SDK");
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/end", Map.of("end", end)).statusCode(200);
        read(id).body("call.display_name", nullValue());
    }

    @Test
    void wbSpellingsAreAcceptedAsAliases() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("wb_run_id", "run-7");
        start.put("wb_run_step", 3);
        Map<String, Object> end = end(id, Map.of());
        end.put("wb_run_step_end", 4);
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/end", Map.of("end", end)).statusCode(200);
        read(id).body("call.svc_run_id", equalTo("run-7"))
                .body("call.svc_run_step", equalTo(3))
                .body("call.svc_run_step_end", equalTo(4));
    }

    @Test
    void missingRequiredFieldsAre422sNamingThem() {
        Map<String, Object> start = start(UUID.randomUUID().toString());
        start.remove("op_name");
        post("/call/start", Map.of("start", start)).statusCode(422)
                .body("detail[0].type", equalTo("missing"))
                .body("detail[0].loc", equalTo(List.of("body", "start", "op_name")));
        Map<String, Object> end = end("x", Map.of());
        end.remove("summary");
        post("/call/end", Map.of("end", end)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "end", "summary")));
        post("/call/start", Map.of()).statusCode(422).body("detail[0].loc", equalTo(List.of("body", "start")));
    }

    @Test
    void opNamesAndDisplayNamesHaveLimits() {
        Map<String, Object> start = start(UUID.randomUUID().toString());
        start.put("op_name", "x".repeat(129));
        post("/call/start", Map.of("start", start)).statusCode(422)
                .body("detail[0].type", equalTo("string_too_long"))
                .body("detail[0].loc", equalTo(List.of("body", "start", "op_name")));
        start.put("op_name", "weave:///e/p/object/not-an-op:abc");
        post("/call/start", Map.of("start", start)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "start", "op_name")));
        start.put("op_name", "my_op");
        start.put("display_name", "d".repeat(1025));
        post("/call/start", Map.of("start", start)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "start", "display_name")));
    }

    @Test
    void anOpRefNamesTheTraceByItsOpName() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("op_name", "weave:///" + project + "/op/" + "x".repeat(130) + ":abc123");
        post("/call/start", Map.of("start", start)).statusCode(200);
        read(id).body("call.summary.weave.trace_name", equalTo("x".repeat(130)));
    }

    @Test
    void anExceptionMakesAnErrorAndAnErroredDescendantADescendantError() {
        String failed = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(failed))).statusCode(200);
        Map<String, Object> end = end(failed, Map.of());
        end.put("exception", "ValueError: boom");
        post("/call/end", Map.of("end", end)).statusCode(200);
        read(failed).body("call.exception", equalTo("ValueError: boom")).body("call.summary.weave.status", equalTo("error"));

        String parent = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(parent))).statusCode(200);
        post("/call/end", Map.of("end", end(parent, Map.of("status_counts", Map.of("success", 1, "error", 1)))))
                .statusCode(200);
        read(parent).body("call.summary.weave.status", equalTo("descendant_error"));
    }

    @Test
    void storageSizesAreReportedOnlyWhenAskedAndTheTotalOnlyOnRoots() {
        String root = UUID.randomUUID().toString();
        String child = UUID.randomUUID().toString();
        post("/call/start", Map.of("start", start(root))).statusCode(200);
        Map<String, Object> childStart = start(child);
        childStart.put("trace_id", "trace-" + root);
        childStart.put("parent_id", root);
        post("/call/start", Map.of("start", childStart)).statusCode(200);

        Map<String, Object> sized = Map.of("project_id", project, "id", root, "include_storage_size", true,
                "include_total_storage_size", true);
        int rootSize = post("/call/read", sized).statusCode(200)
                .body("call.storage_size_bytes", greaterThan(0))
                .extract().path("call.storage_size_bytes");
        post("/call/read", sized).body("call.total_storage_size_bytes", greaterThan(rootSize));
        post("/call/read", Map.of("project_id", project, "id", child, "include_total_storage_size", true,
                "include_costs", true))
                .statusCode(200).body("call.total_storage_size_bytes", nullValue());
    }

    @Test
    void naiveAndOffsetTimesAreReadAsUtc() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("started_at", "2025-01-01T14:00:00.5+02:00");
        Map<String, Object> end = end(id, Map.of());
        end.put("ended_at", "2025-01-01T12:00:02");
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/end", Map.of("end", end)).statusCode(200);
        read(id).body("call.started_at", equalTo("2025-01-01T12:00:00.500000Z"))
                .body("call.ended_at", equalTo("2025-01-01T12:00:02Z"))
                .body("call.summary.weave.latency_ms", equalTo(1500));

        start.put("started_at", "yesterday");
        post("/call/start", Map.of("start", start)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "start", "started_at")));
    }

    @Test
    void aNulCharacterIsABadRequestNotAServerError() {
        Map<String, Object> start = start(UUID.randomUUID().toString());
        start.put("inputs", Map.of("text", "a\u0000b"));
        post("/call/start", Map.of("start", start)).statusCode(400).body("reason", matchesPattern(".*NUL.*"));
    }

    @Test
    void anOtelSpanIsReadBackUnderTheAttributes() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("otel_dump", Map.of("name", "span-1"));
        post("/call/start", Map.of("start", start)).statusCode(200);
        read(id).body("call.attributes", equalTo(Map.of("a", "b", "otel_span", Map.of("name", "span-1"))));
    }

    @Test
    void anOtelSpanWithANulCharacterIsRefusedButABackslashBeforeU0000IsKept() {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("otel_dump", Map.of("name", "a\u0000b"));
        post("/call/start", Map.of("start", start)).statusCode(400).body("reason", matchesPattern(".*NUL.*"));
        read(id).body("call", nullValue());
        start.put("otel_dump", Map.of("name", "a\\u0000b"));
        post("/call/start", Map.of("start", start)).statusCode(200);
        read(id).body("call.attributes.otel_span.name", equalTo("a\\u0000b"));
    }

    @Test
    void refsInInputsAndOutputAreIndexedOnceEvenWhenPartsRepeat() throws Exception {
        String id = UUID.randomUUID().toString();
        String model = "weave:///" + project + "/object/model:abc";
        String dataset = "weave:///" + project + "/object/dataset:def";
        Map<String, Object> start = start(id);
        start.put("inputs", Map.of("model", model, "nested", List.of(Map.of("dataset", dataset), "plain text")));
        Map<String, Object> end = end(id, Map.of());
        end.put("output", List.of(model));
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/end", Map.of("end", end)).statusCode(200);

        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement query = db.prepareStatement(
                     "SELECT input_refs, output_refs FROM tracing.calls WHERE project_id = ? AND id = ?")) {
            query.setString(1, project);
            query.setString(2, id);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next());
                assertEquals(Set.of(model, dataset), Set.of((String[]) row.getArray("input_refs").getArray()));
                assertEquals(2, ((String[]) row.getArray("input_refs").getArray()).length);
                assertEquals(List.of(model), List.of((String[]) row.getArray("output_refs").getArray()));
            }
        }
    }

    /** The JSON columns travel to PostgreSQL as UTF-8 bytes; each one's size is its JSON text's length in them. */
    @Test
    void nonAsciiJsonIsStoredAsSentAndSizedInUtf8Bytes() throws Exception {
        String id = UUID.randomUUID().toString();
        Map<String, Object> start = start(id);
        start.put("inputs", Map.of("text", "café 漢字 🙂"));
        post("/call/start", Map.of("start", start)).statusCode(200);
        post("/call/read", Map.of("project_id", project, "id", id)).statusCode(200)
                .body("call.inputs.text", equalTo("café 漢字 🙂"));
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement query = db.prepareStatement("SELECT inputs ->> 'text' AS text, inputs_size_bytes,"
                     + " attributes_size_bytes FROM tracing.calls WHERE project_id = ? AND id = ?")) {
            query.setString(1, project);
            query.setString(2, id);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next());
                assertEquals("café 漢字 🙂", row.getString("text"));
                // {"text":"café 漢字 🙂"}: 9 + 5 + 1 + 6 + 1 + 4 + 2 bytes
                assertEquals(28, row.getInt("inputs_size_bytes"));
                assertEquals("{\"a\":\"b\"}".length(), row.getInt("attributes_size_bytes"));
            }
        }
    }

    private Map<String, Object> start(String id) {
        Map<String, Object> start = new HashMap<>();
        start.put("project_id", project);
        start.put("id", id);
        start.put("trace_id", "trace-" + id);
        start.put("op_name", "my_op");
        start.put("started_at", STARTED);
        start.put("attributes", Map.of("a", "b"));
        start.put("inputs", Map.of("x", 1));
        return start;
    }

    private Map<String, Object> end(String id, Map<String, Object> summary) {
        Map<String, Object> end = new HashMap<>();
        end.put("project_id", project);
        end.put("id", id);
        end.put("ended_at", ENDED);
        end.put("output", Map.of("answer", 42));
        end.put("summary", summary);
        return end;
    }

    private ValidatableResponse read(String id) {
        return post("/call/read", Map.of("project_id", project, "id", id));
    }

    private ValidatableResponse post(String path, Map<String, Object> body) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(body)
                .post(path).then();
    }
}
