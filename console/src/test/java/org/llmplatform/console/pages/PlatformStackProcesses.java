package org.llmplatform.console.pages;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.llmplatform.testing.PackagedService;

/**
 * The packaged tracing-service, inference-gateway, training-service and automation-service wired to each other as the
 * local stack wires them (each knows the others' URLs; the gateway and the trainer share one blob store), the gateway
 * serving and the embedded trainer training stories260K, the model the repository ships in {@code models/}, and the
 * automation-service delivering webhooks to receivers on this machine over plain HTTP: the console's upstreams for
 * the pages that need more than the traces (training, playground, usage, automations, keys, teams).
 */
public class PlatformStackProcesses implements QuarkusTestResourceLifecycleManager {

    static final Path MODELS = Path.of("..", "models").toAbsolutePath().normalize();
    static final String BASE_MODEL = "stories260K";

    private final List<PackagedService> started = new ArrayList<>();

    @Override
    public Map<String, String> start() {
        int tracingPort = PackagedService.freePort();
        int inferencePort = PackagedService.freePort();
        int trainingPort = PackagedService.freePort();
        String blobs;
        try {
            blobs = Files.createTempDirectory("console-test-blobs").toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> urls = Map.of(
                "PLATFORM_TRACING_URL", "http://localhost:" + tracingPort,
                "PLATFORM_INFERENCE_URL", "http://localhost:" + inferencePort,
                "PLATFORM_TRAINING_URL", "http://localhost:" + trainingPort);
        String checkpoint = MODELS.resolve("stories260K.bin").toString();
        String tokenizer = MODELS.resolve("tok512.bin").toString();
        // One after the other: they migrate the shared identity schema as they start.
        // A default price for the base model (added to the shipped table), which the usage page costs it at.
        PackagedService tracing = begin("tracing-service", tracingPort, Map.of(
                "tracing.default-prices.\"" + BASE_MODEL + "\".prompt-token-cost", "0.00005",
                "tracing.default-prices.\"" + BASE_MODEL + "\".completion-token-cost", "0.0001"), urls);
        PackagedService inference = begin("inference-gateway", inferencePort, Map.of("platform.blob.root", blobs,
                "gateway.models.\"" + BASE_MODEL + "\".checkpoint", checkpoint,
                "gateway.models.\"" + BASE_MODEL + "\".tokenizer", tokenizer), urls);
        PackagedService training = begin("training-service", trainingPort, Map.of("platform.blob.root", blobs,
                "training.base-models", BASE_MODEL, "training.trainer.base-model", BASE_MODEL,
                "training.trainer.checkpoint", checkpoint, "training.trainer.tokenizer", tokenizer), urls);
        PackagedService automation = begin("automation-service", PackagedService.freePort(), Map.of(
                "automation.secrets.active-key-id", "console",
                "automation.secrets.keys.console", "Y29uc29sZS10ZXN0LWtleS1jb25zb2xlLXRlc3Qta2U=",
                "automation.delivery.allow-http", "true",
                "automation.delivery.allowed-networks", "127.0.0.1/32"), urls);
        return Map.of("console.upstreams.tracing.url", tracing.base().toString(),
                "console.upstreams.inference.url", inference.base().toString(),
                "console.upstreams.training.url", training.base().toString(),
                "console.upstreams.automation.url", automation.base().toString());
    }

    private PackagedService begin(String module, int port, Map<String, String> properties, Map<String, String> environment) {
        PackagedService service = PackagedService.start(module, port, properties, environment);
        started.add(service);
        return service;
    }

    @Override
    public void stop() {
        List<PackagedService> stopping = new ArrayList<>(started);
        Collections.reverse(stopping);
        stopping.forEach(PackagedService::stop);
        started.clear();
    }
}
