package org.llmplatform.tracing.retention;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How often and in what batches the expired calls of projects with a retention go (docs/tracing-service.md#retention). */
@ConfigMapping(prefix = "tracing.retention")
public interface RetentionConfig {

    /** Time between rounds; a round goes on, batch after batch, while batches come back full. */
    @WithDefault("10m")
    Duration interval();

    /** The most calls one batch (one short transaction) deletes. */
    @WithDefault("5000")
    int batchSize();
}
