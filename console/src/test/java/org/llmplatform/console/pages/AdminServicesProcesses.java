package org.llmplatform.console.pages;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import org.llmplatform.testing.PackagedService;

/**
 * The upstreams of the console's Automations, API keys and Teams pages, packaged, each in its own JVM: the
 * tracing-service (identity), the automation-service (webhooks on artifact events, delivering to receivers on
 * this machine over plain HTTP) and the training-service, whose model registrations publish a checkpoint's
 * artifact events (its embedded trainer stays off: nothing is trained).
 */
public class AdminServicesProcesses implements QuarkusTestResourceLifecycleManager {

    private List<PackagedService> services = List.of();

    @Override
    public Map<String, String> start() {
        PackagedService tracing = PackagedService.start("tracing-service", Map.of(), Map.of());
        PackagedService automation = PackagedService.start("automation-service", Map.of(
                "automation.secrets.active-key-id", "console",
                "automation.secrets.keys.console", "Y29uc29sZS10ZXN0LWtleS1jb25zb2xlLXRlc3Qta2U=",
                "automation.delivery.allow-http", "true",
                "automation.delivery.allowed-networks", "127.0.0.1/32"), Map.of());
        PackagedService training = PackagedService.start("training-service", Map.of("training.trainer.enabled", "false"), Map.of());
        services = List.of(tracing, automation, training);
        return Map.of("console.upstreams.tracing.url", tracing.base().toString(),
                "console.upstreams.automation.url", automation.base().toString(),
                "console.upstreams.training.url", training.base().toString());
    }

    @Override
    public void stop() {
        services.forEach(PackagedService::stop);
    }
}
