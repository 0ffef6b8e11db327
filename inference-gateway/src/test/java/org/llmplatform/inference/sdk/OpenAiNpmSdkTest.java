package org.llmplatform.inference.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The official {@code openai} npm SDK (6.49.0, Node 20) against the running gateway (docs/inference-gateway.md#client-sdks), by
 * {@code src/test/node/sdk-check.mjs} (chat, models, errors) and {@code completions-check.mjs} (legacy completions,
 * embeddings). Needs {@code npm ci --prefix src/test/node} first; skipped where Node or that install is missing.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class OpenAiNpmSdkTest {

    private static final Path HARNESS = Path.of("src", "test", "node");

    @TestHTTPResource("/v1")
    URL base;

    @Test
    void theNpmSdkCreatesStreamsListsAndReadsErrors() throws Exception {
        run("sdk-check.mjs");
    }

    @Test
    void theNpmSdkCompletesEchoesAndEmbedsAsFloatsAndBase64() throws Exception {
        run("completions-check.mjs");
    }

    /** Runs a script of the harness as a fresh user, whose project is {@code <user>/sdk}; it exits 0 when its checks pass. */
    private void run(String script) throws Exception {
        assumeTrue(Files.isDirectory(HARNESS.resolve("node_modules").resolve("openai")),
                "run npm ci --prefix " + HARNESS + " to enable the npm SDK check");
        String user = TestIdentities.unique("npm");
        Process node = new ProcessBuilder("node", script, base.toString(), TestIdentities.userWithKey(user),
                user + "/sdk").directory(HARNESS.toFile()).redirectErrorStream(true).start();
        boolean finished = node.waitFor(60, TimeUnit.SECONDS);
        if (!finished) {
            node.destroyForcibly();
        }
        assertTrue(finished, script + " did not finish within 60 s");
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, node.exitValue(), output);
    }
}
