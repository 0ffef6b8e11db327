package org.llmplatform.inference.bench;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts the benchmark's upstreams ({@link VllmStandIn}) as a JVM of their own, as a real upstream is
 * another process, so neither its work nor its garbage collection lands in the gateway's JVM, and
 * points two gateway models at them: {@link #MODEL} at the continuous-batching vLLM stand-in,
 * {@link #CANNED_MODEL} at the server that answers at once.
 * <p>
 * The stand-in's engine is that of a fast GPU server: {@code bench.upstream.max-num-seqs} (256,
 * vLLM's default max_num_seqs) sequences per step and {@code bench.upstream.step-micros} (6,000: a
 * ~1B-parameter model on one H100 decodes 256 sequences at about 40,000 tokens/s; Llama-3.1-8B takes
 * ~20 ms a step there) per step.
 */
public class BenchUpstream implements QuarkusTestResourceLifecycleManager {

    static final String MODEL = "bench-model";
    static final String CANNED_MODEL = "bench-canned";
    static final String URL_PROPERTY = "bench.upstream.url";
    static final String CANNED_URL_PROPERTY = "bench.upstream.canned-url";
    static final int MAX_NUM_SEQS = Integer.getInteger("bench.upstream.max-num-seqs", 256);
    static final int STEP_MICROS = Integer.getInteger("bench.upstream.step-micros", 6000);

    private Process upstream;

    @Override
    public Map<String, String> start() {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                VllmStandIn.class.getName(), MODEL, CANNED_MODEL,
                Integer.toString(MAX_NUM_SEQS), Integer.toString(STEP_MICROS)));
        String[] ports;
        try {
            upstream = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(upstream.getInputStream(),
                    StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("LISTENING ")) {
                throw new IllegalStateException("the benchmark upstream said " + line);
            }
            ports = line.substring("LISTENING ".length()).split(" ");
        } catch (IOException e) {
            throw new IllegalStateException("the benchmark upstream did not start", e);
        }
        String canned = "http://127.0.0.1:" + ports[0] + "/v1";
        String batching = "http://127.0.0.1:" + ports[1] + "/v1";
        System.setProperty(CANNED_URL_PROPERTY, canned);
        System.setProperty(URL_PROPERTY, batching);
        // The gateway's own usage-totals consumer (a database transaction per request, downstream of the
        // request path) would compete with the gateway for this machine's cores, so it is off here.
        return Map.of(
                "gateway.upstreams." + MODEL + ".url", batching,
                "gateway.upstreams." + MODEL + ".retries", "0",
                "gateway.upstreams." + MODEL + ".connect-timeout", "60s",
                "gateway.upstreams." + CANNED_MODEL + ".url", canned,
                "gateway.upstreams." + CANNED_MODEL + ".retries", "0",
                "gateway.upstreams." + CANNED_MODEL + ".connect-timeout", "60s",
                "gateway.limits.concurrent-requests-per-project", "100000",
                "mp.messaging.incoming.usage-totals.enabled", "false");
    }

    @Override
    public void stop() {
        if (upstream == null) {
            return;
        }
        try {
            upstream.getOutputStream().close();
            if (!upstream.waitFor(10, TimeUnit.SECONDS)) {
                upstream.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            upstream.destroyForcibly();
        }
    }
}
