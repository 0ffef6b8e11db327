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
import org.llmplatform.inference.responses.FakeResponsesUpstreams;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The official {@code openai} npm SDK's Responses API (6.49.0: {@code responses.create}, {@code .stream},
 * {@code .retrieve}, {@code .delete}, {@code inputItems.list}, {@code previous_response_id}, a tool round trip, tool_choice
 * required, a stream relayed from a Responses upstream) against the running gateway, by
 * {@code src/test/node/responses-check.mjs}. Needs {@code npm ci --prefix src/test/node} first; skipped where Node or
 * that install is missing.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(FakeResponsesUpstreams.class)
class OpenAiNpmResponsesTest {

    private static final Path HARNESS = Path.of("src", "test", "node");

    @TestHTTPResource("/v1")
    URL base;

    @Test
    void theNpmSdkCreatesStreamsRetrievesDeletesAndChainsResponses() throws Exception {
        assumeTrue(Files.isDirectory(HARNESS.resolve("node_modules").resolve("openai")),
                "run npm ci --prefix " + HARNESS + " to enable the npm SDK check");
        String user = TestIdentities.unique("npm-responses");
        Process node = new ProcessBuilder("node", "responses-check.mjs", base.toString(), TestIdentities.userWithKey(user),
                user + "/sdk").directory(HARNESS.toFile()).redirectErrorStream(true).start();
        boolean finished = node.waitFor(90, TimeUnit.SECONDS);
        if (!finished) {
            node.destroyForcibly();
        }
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(finished, "the npm SDK check did not finish within 90 s: " + output);
        assertEquals(0, node.exitValue(), output);
    }
}
