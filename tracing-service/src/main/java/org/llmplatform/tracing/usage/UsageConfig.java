package org.llmplatform.tracing.usage;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How the gateway's usage records become calls (docs/tracing-service.md#usage-calls). */
@ConfigMapping(prefix = "tracing.usage")
public interface UsageConfig {

    /**
     * How long a completion's link between the client's call and the gateway's (tracing.completion_calls) is kept
     * after either was last written: at least the {@code inference.usage} topic's retention, and at least the
     * gateway's {@code gateway.usage.counted-requests-kept}. A usage record the topic has held longer is skipped.
     */
    @WithDefault("7d")
    Duration completionCallsKept();
}
