package org.llmplatform.support.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "platform.auth")
public interface AuthConfig {

    /** A key with every right, so that a fresh install can create the first users and keys. */
    Optional<String> bootstrapAdminKey();

    /**
     * How long a resolved key is trusted without asking the database; bounds how late a revocation bites. The
     * API-key cache reads it (and {@link #cacheSize()}) through its {@code quarkus.cache.caffeine} settings.
     */
    @WithDefault("4s")
    Duration cacheTtl();

    @WithDefault("10000")
    int cacheSize();
}
