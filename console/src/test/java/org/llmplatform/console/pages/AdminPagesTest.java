package org.llmplatform.console.pages;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.llmplatform.testing.TestIdentities;

/**
 * The console's Automations, API keys and Teams pages in front of the packaged tracing-, automation- and
 * training-services: real headless Chromium ({@code src/test/browser/admin-pages.mjs}) creates and revokes a key,
 * makes a team with a member, a secret, a webhook it tests against a local receiver, and an automation that
 * fires when a model registered through the training API gets its step-0 checkpoint; then it reads the delivery
 * and redelivers it. Runs where Chromium and the scripts' npm dependencies are installed, as CI does.
 */
@QuarkusTest
@QuarkusTestResource(value = AdminServicesProcesses.class, restrictToAnnotatedClass = true)
class AdminPagesTest {

    @TestHTTPResource("/")
    URL base;

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
        return BrowserScripts.available();
    }
}
