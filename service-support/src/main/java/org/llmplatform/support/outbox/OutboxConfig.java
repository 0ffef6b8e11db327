package org.llmplatform.support.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "platform.outbox")
public interface OutboxConfig {

    /**
     * The schema-qualified outbox table ({@code training.outbox}); without it the service has no outbox
     * and the relay stays idle. The service's own migration creates it:
     * {@code CREATE TABLE <table> (id bigserial PRIMARY KEY, topic text NOT NULL, message_key text,
     * payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())}.
     */
    Optional<String> table();

    /** How often the relay looks for messages nobody woke it up for (left by a crash or another instance). */
    @WithDefault("1s")
    Duration pollInterval();

    @WithDefault("200")
    int batchSize();
}
