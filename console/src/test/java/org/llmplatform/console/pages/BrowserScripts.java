package org.llmplatform.console.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The node scripts of {@code src/test/browser} that the page tests run: headless Chromium driven by playwright-core,
 * each script printing {@code STEP <name>} as a person's step succeeds and {@code PAGE ERROR} for anything the page
 * threw. Available where Chromium, node and the scripts' npm dependencies ({@code npm ci} there) are, as in CI.
 */
final class BrowserScripts {

    private static final Path FOLDER = Path.of("src/test/browser");
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    private static final Path SCREENSHOTS = Path.of("target/screenshots");

    /** Whether Chromium, node, playwright-core and these further npm packages are installed. */
    static boolean available(String... packages) throws IOException {
        List<String> needed = new ArrayList<>(List.of("playwright-core"));
        needed.addAll(List.of(packages));
        return Files.isExecutable(CHROMIUM)
                && needed.stream().allMatch(name -> Files.isDirectory(FOLDER.resolve("node_modules").resolve(name)))
                && new ProcessBuilder("node", "--version").start().onExit().join().exitValue() == 0;
    }

    /**
     * Runs a page script (its screenshots go to target/screenshots) and fails unless it exits 0 within
     * {@code timeout}, prints every one of {@code steps} and no page error; answers what it printed.
     */
    static String runPages(Duration timeout, List<String> steps, String... command) throws Exception {
        Files.createDirectories(SCREENSHOTS);
        String output = run(timeout, Map.of("SCREENSHOTS", SCREENSHOTS.toAbsolutePath().toString()), command);
        for (String step : steps) {
            assertTrue(output.contains("STEP " + step), "no " + step + " in:\n" + output);
        }
        assertFalse(output.contains("PAGE ERROR"), output);
        return output;
    }

    /** Runs a node command in the scripts' folder and fails unless it exits 0 within {@code timeout}. */
    static String run(Duration timeout, Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(FOLDER.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(finished, String.join(" ", command) + " did not finish within " + timeout + ":\n" + output);
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
        return output;
    }

    private BrowserScripts() {
    }
}
