package org.llmplatform.automation.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

@ConfigMapping(prefix = "automation")
public interface AutomationConfig {

    /**
     * The console's origin ({@code PLATFORM_CONSOLE_URL}, e.g. {@code http://localhost:8000}): the admin page
     * moved into the console, and {@code /admin} redirects there. Without it {@code /admin} answers 404.
     */
    Optional<String> consoleUrl();

    Secrets secrets();

    Delivery delivery();

    interface Secrets {

        /**
         * The key that encrypts new and rotated secrets; must be one of {@link #keys()}. Without it the
         * service runs, but secrets can be neither written nor used.
         */
        Optional<String> activeKeyId();

        /** Key-encryption keys by id, each 32 bytes in standard Base64. Old ids stay to read older rows. */
        Map<String, String> keys();
    }

    interface Delivery {

        /** Plain-HTTP endpoints are refused unless this is on (development, loopback tests). */
        @WithDefault("false")
        boolean allowHttp();

        /** CIDR ranges exempt from the private-network block (e.g. 127.0.0.1/32 for local receivers). */
        Optional<List<String>> allowedNetworks();

        @WithDefault("5s")
        Duration connectTimeout();

        /** The whole request, response body included. */
        @WithDefault("15s")
        Duration requestTimeout();

        /** Delays before the second, third, … attempt; one attempt more than delays in all. */
        @WithDefault("5s,5m,30m,2h,5h,10h,10h")
        List<Duration> retrySchedule();

        /** Each delay is scaled by a random factor in [1 − jitter, 1 + jitter]. */
        @WithDefault("0.2")
        double jitter();

        /** The least delay after a 429, 502, 504 or timeout. */
        @WithDefault("60s")
        Duration throttleDelay();

        /** A webhook whose attempts have all failed for this long is disabled. */
        @WithDefault("P5D")
        Duration disableAfter();

        /** How long a claimed delivery stays with its dispatcher before another may take it. */
        @WithDefault("60s")
        Duration lease();

        /**
         * How often due retries, and deliveries nobody handed over (another replica's, a crashed instance's), are
         * looked for; new deliveries are handed to the dispatcher at once.
         */
        @WithDefault("100ms")
        Duration pollInterval();

        /** Due deliveries claimed by one query. */
        @WithDefault("128")
        int batchSize();

        /** Attempts under way at once, per instance; new deliveries beyond it wait for a claim. */
        @WithDefault("512")
        int maxInFlight();
    }
}
