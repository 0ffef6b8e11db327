package org.llmplatform.console.pages;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.llmplatform.testing.PackagedService;

/** The packaged tracing-service as the console's tracing upstream. */
public class TracingServiceProcess implements QuarkusTestResourceLifecycleManager {

    private PackagedService tracing;

    @Override
    public Map<String, String> start() {
        tracing = PackagedService.start("tracing-service", Map.of(), Map.of());
        return Map.of("console.upstreams.tracing.url", tracing.base().toString());
    }

    @Override
    public void stop() {
        if (tracing != null) {
            tracing.stop();
        }
    }
}
