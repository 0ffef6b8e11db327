package org.llmplatform.automation.rest;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.llmplatform.automation.Api;
import org.llmplatform.automation.ArtifactEventsTopic;
import org.llmplatform.automation.Teams;
import org.llmplatform.automation.TestReceiver;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AdminPageTest {

    private static final Path BROWSER_TEST = Path.of("src/test/browser");
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));

    @TestHTTPResource("/")
    URL base;

    @Test
    void thePageIsServedWithoutAKey() {
        given().get("/admin/").then().statusCode(200).body(containsString("<title>Automations admin</title>"));
        given().get("/admin/admin.js").then().statusCode(200).body(containsString("textContent"));
    }

    /**
     * Real headless Chromium drives the page (src/test/browser/admin-page.mjs); it runs where Chromium and
     * the script's npm dependency are installed ({@code npm ci} in src/test/browser), as CI does.
     */
    @Test
    @EnabledIf("browserAvailable")
    void anAdminCreatesAWebhookAndAnAutomationInTheBrowserAndSeesTheDelivery() throws Exception {
        String admin = TestIdentities.unique("admin");
        String key = TestIdentities.userWithKey(admin);
        String team = TestIdentities.unique("team");
        Teams.withAdmin(team, admin);
        try (TestReceiver receiver = new TestReceiver()) {
            String origin = base.toString().replaceAll("/$", "");
            Process browser = new ProcessBuilder("node", "admin-page.mjs", origin, key, team, receiver.url("/browser"))
                    .directory(BROWSER_TEST.toFile()).redirectErrorStream(true).start();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() ->
                    Api.as(key).queryParam("entity", team).get("/automations").jsonPath().getList("data").size() == 1);
            ArtifactEventsTopic.publish(new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(),
                    ArtifactEventType.LINK_ARTIFACT, team, "llm", "model", "v3", List.of("latest"), List.of(), admin, Map.of(),
                    Instant.now()));
            assertTrue(browser.waitFor(90, TimeUnit.SECONDS), "the browser script did not finish");
            String output = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, browser.exitValue(), output);
            assertTrue(output.contains("DELIVERY_SEEN"), output);
            TestReceiver.Received delivery = receiver.received().get(receiver.received().size() - 1);
            assertTrue(TestReceiver.svcSignatureValid(delivery, "browser-signing-secret"));
        }
    }

    static boolean browserAvailable() throws IOException {
        return Files.isExecutable(CHROMIUM) && Files.isDirectory(BROWSER_TEST.resolve("node_modules/playwright-core"))
                && new ProcessBuilder("node", "--version").start().onExit().join().exitValue() == 0;
    }
}
