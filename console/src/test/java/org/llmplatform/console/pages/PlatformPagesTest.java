package org.llmplatform.console.pages;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.llmplatform.testing.TestIdentities;

/**
 * The console in front of the packaged platform (tracing-service, inference-gateway, training-service with stories260K
 * served and trained on the CPU, automation-service), started once for both of its pages' stories.
 * <p>
 * Training: a person trains a model through the API while watching it in the training page, chats
 * with the new checkpoint in the playground, finds the exchange among the traces and its tokens on the usage page,
 * where a request the gateway refused (422) counts among the errors, and sets the project's limits there, which the
 * next request counts against; then judges the playground's exchanges (👍, 👎) and, from the calls table, trains the
 * model on them by RL and by SFT ({@code src/test/browser/training-pages.mjs} in
 * headless Chromium).
 * <p>
 * Administration: the Automations, API keys and Teams pages ({@code src/test/browser/admin-pages.mjs}) create and revoke
 * a key, make a team with a member, a secret, a webhook tested against a local receiver, and an automation that fires
 * when a model registered through the training API gets its step-0 checkpoint; then read the delivery and redeliver it.
 * <p>
 * Runs where Chromium and the scripts' npm dependencies ({@code npm ci} in src/test/browser) are present, as CI does.
 */
@QuarkusTest
@QuarkusTestResource(value = PlatformStackProcesses.class, restrictToAnnotatedClass = true)
class PlatformPagesTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    @EnabledIf("browserAvailable")
    void aPersonWatchesAModelTrainChatsWithItsNewCheckpointAndFindsTheTraceAndTheTokens() throws Exception {
        String origin = base.toString().replaceAll("/$", "");
        String user = TestIdentities.unique("trainer");
        String key = AdminApi.userWithKey(user);
        String project = "stories";

        String output = BrowserScripts.runPages(Duration.ofSeconds(420), List.of("LOGGED", "MODEL_OPENED", "REWARD_CURVE", "TRAINED_LIVE", "RELOADED", "CHATTED", "COMPARED",
                "TRACE_FOUND", "USAGE_SEEN", "REFUSAL_COUNTED", "LIMITS_SET", "TRAIN_FROM_QUEUE", "TRAINED_FROM_CALLS",
                "SFT_FROM_CALLS", "EVALUATED_BOTH_STEPS"),
                "node", "training-pages.mjs", origin, key, user, project,
                PlatformStackProcesses.BASE_MODEL);
        System.out.println(output);

        // What the playground sent is stored as traced completion calls of the project: two with the checkpoint,
        // one with the base model.
        List<String> models = given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body(Map.of("project_id", user + "/" + project, "filter", Map.of("op_names", List.of("weave.completions_create"))))
                .post("/calls/stream_query").then().statusCode(200).extract().asString().lines()
                .filter(line -> !line.isBlank())
                .map(line -> io.restassured.path.json.JsonPath.from(line).getString("inputs.model")).sorted().toList();
        assertEquals(List.of(PlatformStackProcesses.BASE_MODEL, "wandb-artifact:///" + user + "/" + project + "/storyteller",
                "wandb-artifact:///" + user + "/" + project + "/storyteller"), models);
    }

    @Test
    @EnabledIf("browserAvailable")
    void aPersonManagesKeysATeamAndAnAutomationThatFiresOnACheckpoint() throws Exception {
        String origin = base.toString().replaceAll("/$", "");
        String user = TestIdentities.unique("keeper");
        String colleague = TestIdentities.unique("colleague");
        String team = TestIdentities.unique("crew");
        String key = AdminApi.userWithKey(user);
        AdminApi.userWithKey(colleague);

        BrowserScripts.runPages(Duration.ofSeconds(240), List.of("SIGNED_IN", "KEY_SHOWN_ONCE", "KEY_COPIED", "KEY_REVOKED", "MEMBER_ADDED", "SECRET_SAVED",
                "WEBHOOK_TESTED", "AUTOMATION_CREATED", "CHECKPOINT_REGISTERED", "DELIVERED", "REDELIVERED", "RELOADED"),
                "node", "admin-pages.mjs", origin, key, user, colleague, team, "tellers");

        // What the pages did is what the APIs hold.
        given().header("Authorization", "Bearer " + key).get("/admin/teams/{team}/members", team)
                .then().statusCode(200).body("user", hasItem(colleague));
        given().header("Authorization", "Bearer " + key).get("/automations?entity={team}", team)
                .then().statusCode(200).body("data.name", hasItem("new checkpoint"));
    }

    static boolean browserAvailable() throws IOException {
        return ConsolePagesTest.browserAvailable();
    }
}
