package org.llmplatform.console.pages;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.llmplatform.testing.TestIdentities;

/**
 * The console in front of the real, packaged tracing-service: a user made through the admin API logs a
 * trace and a Dataset with the Weave TypeScript SDK through the console's origin, then real headless
 * Chromium uses the pages ({@code src/test/browser/console-pages.mjs}); another evaluates two models with the SDK and
 * compares them ({@code evaluation-pages.mjs}); and the link the SDK prints for a call opens it
 * ({@code call-link.mjs}). One class, so the packaged service starts once for all three. Runs where Chromium and the
 * scripts' npm dependencies are installed ({@code npm ci} in src/test/browser), as CI does.
 */
@QuarkusTest
@QuarkusTestResource(value = TracingServiceProcess.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = LocalhostHttps.class, restrictToAnnotatedClass = true)
class ConsolePagesTest {

    /** What the Weave Python SDK sends as a call's exception (weave/trace/exception.py's JSON). */
    private static final String PYTHON_SDK_EXCEPTION = """
            {"type": "TimeoutError", "message": "the model did not answer within 30 s", "traceback": [\
            {"filename": "support_bot.py", "line_number": 42, "function_name": "answer_turn", \
            "text": "reply = model.answer(message)"}, {"filename": "model.py", "line_number": 7, \
            "function_name": "answer", "text": "raise TimeoutError(\\"the model did not answer within 30 s\\")"}]}""";

    @TestHTTPResource("/")
    URL base;

    @TestHTTPResource(value = "/", tls = true)
    URL secure;

    @Test
    @EnabledIf("browserAvailable")
    void aPersonSignsInFiltersByAnyOpReadsExceptionsWholeReactsSetsAPriceAndBrowsesTheDatasetsRows() throws Exception {
        String origin = base.toString().replaceAll("/$", "");
        String user = TestIdentities.unique("console");
        String key = AdminApi.userWithKey(user);
        String project = "capitals-app";

        seed("seed.mjs", origin, key, user + "/" + project);

        writeThread(key, user + "/" + project);
        writePrices(key, user + "/" + project);
        writePrompt(key, user + "/" + project);
        writeAnnotationSpec(key, user + "/" + project);

        String pages = BrowserScripts.runPages(Duration.ofSeconds(180), List.of("SIGNED_IN", "FAVICON", "PROJECT_OPENED",
                "CALLS_SEEN", "OPS_FILTERED", "FILTERED", "SORTED_BY_USAGE", "CHILD_READ", "REACTED", "REACTIONS_FALL_BACK",
                "NOTED", "CHAT_READ", "FEEDBACK_FILTERED", "PRICE_SET", "PRICE_REMOVED", "DATASET_ROWS", "THREAD_TURNS",
                "TRACEBACK_READ", "DASHBOARD", "CALLS_COMPARED", "ADDED_TO_DATASET", "EXPORTED", "COLUMNS_CHOSEN",
                "DATASET_FROM_COLUMNS", "VIEW_SAVED",
                "QUEUE_WORKED", "LABELS_AND_VERSIONS", "PROMPT_READ", "RELOADED", "SIGNED_OUT"),
                "node", "console-pages.mjs", origin, key, user, project);
        assertFalse(pages.contains("CONSOLE ERROR"), pages);

        // The price set in the page went through cost/create and its removal through cost/purge.
        List<String> priced = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", user + "/" + project, "fields", List.of("llm_id"),
                        "sort_by", List.of(Map.of("field", "llm_id", "direction", "asc"))))
                .post("/cost/query").then().statusCode(200).extract().jsonPath().getList("results.llm_id");
        assertEquals(List.of("gpt-4o-mini", "tiny-llm"), priced);

        // What the browser added is stored: the reaction on the child that failed, the note on the root.
        List<Map<String, Object>> feedback = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", user + "/" + project, "fields", List.of("feedback_type", "payload", "weave_ref"),
                        "sort_by", List.of(Map.of("field", "created_at", "direction", "asc"))))
                .post("/feedback/query").then().statusCode(200).extract().jsonPath().getList("result");
        // Then the annotation queue's answers on the first turn: a 👍 and a correctness of 4.
        assertEquals(List.of("wandb.reaction.1", "wandb.note.1", "wandb.reaction.1", "wandb.annotation.correctness"),
                feedback.stream().map(row -> row.get("feedback_type")).toList());
        assertEquals("👍", ((Map<?, ?>) feedback.get(0).get("payload")).get("emoji"));
        assertEquals("Checked by hand: the fallback answered.", ((Map<?, ?>) feedback.get(1).get("payload")).get("note"));
        assertEquals("👍", ((Map<?, ?>) feedback.get(2).get("payload")).get("emoji"));
        assertEquals(4, ((Map<?, ?>) feedback.get(3).get("payload")).get("value"));
        assertEquals(feedback.get(2).get("weave_ref"), feedback.get(3).get("weave_ref"));
    }

    /**
     * A conversation of two turns (the Weave TS SDK has no threads, so through the REST API): the first used
     * 500 tokens of a cheap model through a child whose op is a plain name, the second none and failed with the
     * exception the Weave Python SDK sends (JSON: type, message, traceback frames).
     */
    private static void writeThread(String key, String projectId) {
        List<Object> batch = new java.util.ArrayList<>();
        String[][] turns = {{"turn-1", "2026-01-01T10:00:00Z", "2026-01-01T10:00:02Z", "Hello"},
                {"turn-2", "2026-01-01T10:01:00Z", "2026-01-01T10:01:04Z", "And tomorrow?"}};
        List<Map<String, Object>> summaries = List.of(Map.of("usage", Map.of("tiny-llm", Map.of("requests", 1,
                "prompt_tokens", 400, "completion_tokens", 100, "total_tokens", 500))), Map.of());
        for (int i = 0; i < turns.length; i++) {
            String[] turn = turns[i];
            String id = java.util.UUID.randomUUID().toString();
            String traceId = java.util.UUID.randomUUID().toString();
            batch.add(Map.of("mode", "start", "req", Map.of("start", Map.of("project_id", projectId, "id", id, "trace_id",
                    traceId, "op_name", "weave:///" + projectId + "/op/chatTurn:abc", "started_at",
                    turn[1], "thread_id", "support-chat", "turn_id", id, "attributes", Map.of(), "inputs",
                    Map.of("message", turn[3])))));
            Map<String, Object> end = new java.util.HashMap<>(Map.of("project_id", projectId, "id", id, "ended_at", turn[2],
                    "output", "ok", "summary", summaries.get(i)));
            if (i == 0) {
                batch.add(Map.of("mode", "start", "req", Map.of("start", Map.of("project_id", projectId, "id",
                        java.util.UUID.randomUUID().toString(), "trace_id", traceId, "parent_id", id,
                        "op_name", "openai.chat.completions.create", "started_at", turn[1], "attributes", Map.of(),
                        "inputs", Map.of("model", "tiny-llm")))));
            } else {
                end.put("exception", PYTHON_SDK_EXCEPTION);
            }
            batch.add(Map.of("mode", "end", "req", Map.of("end", end)));
        }
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON).body(Map.of("batch", batch))
                .post("/call/upsert_batch").then().statusCode(200);
    }

    /** A question annotators answer with 1 to 5, as Weave's {@code AnnotationSpec}. */
    private static void writeAnnotationSpec(String key, String projectId) {
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("obj", Map.of("project_id", projectId, "object_id", "correctness", "builtin_object_class", "AnnotationSpec",
                        "val", Map.of("name", "correctness", "field_schema", Map.of("type", "integer", "minimum", 1, "maximum", 5)))))
                .post("/obj/create").then().statusCode(200);
    }

    /** A prompt as Weave's Python SDK publishes a {@code weave.MessagesPrompt}. */
    private static void writePrompt(String key, String projectId) {
        Map<String, Object> prompt = Map.of("_type", "MessagesPrompt", "_class_name", "MessagesPrompt",
                "_bases", List.of("Prompt", "Object", "BaseModel"), "name", "support-prompt",
                "messages", List.of(Map.of("role", "system", "content", "You answer with capitals only."),
                        Map.of("role", "user", "content", "What is the capital of {country}?")));
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("obj", Map.of("project_id", projectId, "object_id", "support-prompt", "val", prompt)))
                .post("/obj/create").then().statusCode(200);
    }

    /**
     * Prices that make the cost order differ from the token order: the SDK trace's 21 gpt-4o-mini tokens cost
     * $0.028, the first turn's 500 tiny-llm tokens $0.006.
     */
    private static void writePrices(String key, String projectId) {
        Map<String, Object> costs = Map.of(
                "gpt-4o-mini", Map.of("prompt_token_cost", 0.001, "completion_token_cost", 0.002,
                        "effective_date", "2020-01-01T00:00:00Z"),
                "tiny-llm", Map.of("prompt_token_cost", 0.00001, "completion_token_cost", 0.00002,
                        "effective_date", "2020-01-01T00:00:00Z"));
        given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", projectId, "costs", costs)).post("/cost/create").then().statusCode(200);
    }

    @Test
    @EnabledIf("browserAvailable")
    void aPersonComparesTwoModelsEvaluationRunsOnOneDataset() throws Exception {
        String origin = base.toString().replaceAll("/$", "");
        String user = TestIdentities.unique("evaluator");
        String key = AdminApi.userWithKey(user);
        String project = "arithmetic";

        seed("seed-evals.mjs", origin, key, user + "/" + project);

        String pages = BrowserScripts.runPages(Duration.ofSeconds(120), List.of("EVALUATIONS_LISTED", "LEADERBOARD", "EVALUATIONS_FILTERED",
                "EVALUATIONS_COMPARED", "DISAGREEMENTS_SHOWN", "PREDICTION_OPENED", "REST_RUN_COMPARED"),
                "node", "evaluation-pages.mjs", origin, key, user, project);
        assertFalse(pages.contains("CONSOLE ERROR"), pages);
    }

    /**
     * The link the unmodified Weave TypeScript SDK prints for a traced call, with the settings the README and
     * {@code ./platform} give (traces to the console's HTTP origin, WANDB_BASE_URL its HTTPS one, since the SDK writes
     * the link as https://), opens that call in the console (headless Chromium is told to accept the self-signed
     * certificate as a person accepts it once).
     */
    @Test
    @EnabledIf("browserAvailable")
    void theLinkTheSdkPrintsForACallOpensThatCallsTraceAfterSignIn() throws Exception {
        String origin = base.toString().replaceAll("/$", "");
        String httpsOrigin = secure.toString().replaceAll("/$", "");
        String user = TestIdentities.unique("links");
        String key = AdminApi.userWithKey(user);

        String output = BrowserScripts.runPages(Duration.ofSeconds(120), List.of("LINK_PRINTED", "SIGNED_IN", "CALL_OPENED", "PYTHON_LINK_OPENED"),
                "env", "WF_TRACE_SERVER_URL=" + origin, "WANDB_BASE_URL=" + httpsOrigin, "WANDB_API_KEY=" + key,
                "HOME=" + Files.createTempDirectory("weave-home"), "node", "call-link.mjs", origin, key, user + "/story-app");
        assertTrue(output.contains("LINK " + httpsOrigin + "/" + user + "/story-app/r/call/"), output);
    }

    /** Runs a script that logs a project's data with the unmodified Weave TypeScript SDK through the console. */
    private static void seed(String script, String origin, String key, String projectId) throws Exception {
        String seeded = BrowserScripts.run(Duration.ofSeconds(120),
                Map.of("WF_TRACE_SERVER_URL", origin, "WANDB_API_KEY", key, "WEAVE_PRINT_CALL_LINK", "false",
                        "HOME", Files.createTempDirectory("weave-home").toString()), "node", script, projectId);
        assertTrue(seeded.contains("SEEDED"), seeded);
    }

    static boolean browserAvailable() throws IOException {
        return BrowserScripts.available("weave");
    }
}
