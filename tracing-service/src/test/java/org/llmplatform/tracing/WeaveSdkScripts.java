package org.llmplatform.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs a script of {@code src/test/node} with the unmodified Weave TypeScript SDK against this service, as a user
 * configures the SDK (WF_TRACE_SERVER_URL, WANDB_API_KEY, a HOME of its own), and answers what it printed once it
 * exited 0 within two minutes. Tests using it are skipped where {@code npm ci} has not installed the SDK.
 */
public final class WeaveSdkScripts {

    private static final Path HARNESS = Path.of("src", "test", "node");

    private WeaveSdkScripts() {
    }

    public static void assumeInstalled() {
        assumeTrue(Files.isDirectory(HARNESS.resolve("node_modules").resolve("weave")),
                "run npm ci --prefix " + HARNESS + " to enable the Weave SDK check");
    }

    /** The script's whole output; {@code script} is run with the client's project as its one argument. */
    public static String run(String script, URL service, TraceClient client) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("node", script, client.project).directory(HARNESS.toFile())
                .redirectErrorStream(true);
        String url = service.toString();
        builder.environment().put("WF_TRACE_SERVER_URL", url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        builder.environment().put("WANDB_API_KEY", client.key);
        builder.environment().put("WEAVE_PRINT_CALL_LINK", "false");
        builder.environment().put("HOME", Files.createTempDirectory("weave-home").toString());
        Process node = builder.start();
        boolean finished = node.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            node.destroyForcibly();
        }
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(finished, script + " did not finish within 120 s:\n" + output);
        assertEquals(0, node.exitValue(), output);
        return output;
    }

    /** The JSON after {@code RESULT } on the line the script printed it. */
    public static String result(String output) {
        return output.lines().filter(line -> line.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new AssertionError("no RESULT line:\n" + output)).substring("RESULT ".length());
    }
}
