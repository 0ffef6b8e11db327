package org.llmplatform.console.pages;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
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
 * The link the unmodified Weave TypeScript SDK prints for a traced call, with the settings the README and
 * {@code ./platform} give (traces to the console's HTTP origin, WANDB_BASE_URL its HTTPS one, since the SDK writes
 * the link as https://), opens that call in the console ({@code src/test/browser/call-link.mjs}, headless Chromium,
 * which is told to accept the self-signed certificate as a person accepts it once), in front of the real, packaged
 * tracing-service.
 */
@QuarkusTest
@QuarkusTestResource(value = TracingServiceProcess.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = LocalhostHttps.class, restrictToAnnotatedClass = true)
class CallLinkPageTest {

    @TestHTTPResource("/")
    URL base;

    @TestHTTPResource(value = "/", tls = true)
    URL secure;

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

    static boolean browserAvailable() throws IOException {
        return BrowserScripts.available("weave");
    }
}
