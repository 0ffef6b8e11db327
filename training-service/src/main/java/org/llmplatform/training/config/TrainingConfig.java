package org.llmplatform.training.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;

@ConfigMapping(prefix = "training")
public interface TrainingConfig {

    /**
     * The base models the configured trainers can train, as {@code GET /v1/preview/base-models} lists
     * them; a model may be registered only on one of these. The default is the llama2.c model that the
     * embedded trainer trains and the inference-gateway's embedded engine serves.
     */
    @WithDefault("stories260K")
    List<String> baseModels();

    Jobs jobs();

    Inference inference();

    /** The inference-gateway, to which ART's chat completions and model listing on this base URL are forwarded. */
    interface Inference {

        /** Its base URL without {@code /v1}, e.g. {@code http://inference-gateway:8081}. */
        URI url();

        @WithDefault("5s")
        Duration connectTimeout();
    }

    interface Jobs {

        /** How long a running job may go without any event from its trainer before it is failed. */
        @WithDefault("60s")
        Duration heartbeatLease();

        /** How long a job handed to the trainers may wait for one to start it before it is failed. */
        @WithDefault("10m")
        Duration pickupTimeout();

        /** How often expired leases are looked for. */
        @WithDefault("2s")
        Duration leaseCheckInterval();
    }
}
