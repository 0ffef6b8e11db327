package org.llmplatform.inference.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The gateway's model catalog, engine pool and limits. */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** Embedded-engine models by served id; one whose files are missing is skipped with a warning. */
    Map<String, EmbeddedModel> models();

    /** OpenAI-compatible upstream servers (vLLM, …) by the public model id they serve. */
    Map<String, Upstream> upstreams();

    Engine engine();

    Limits limits();

    Adapters adapters();

    Training training();

    Usage usage();

    Responses responses();

    /** Public model names served under another backend id: {@code gateway.aliases.<public>=<backend id>}. */
    Map<String, String> aliases();

    /**
     * Per-project rules, keyed {@code "entity/project"} (quoted in properties); they override {@link #limits()}, and
     * limits set through {@code /v1/limits} override both.
     */
    Map<String, ProjectRules> projects();

    /** The project a request is attributed to without a Compat-Project header: {@code <user>/<this>}. */
    @WithDefault("inference")
    String defaultProjectName();

    interface EmbeddedModel {
        /** A llama2.c checkpoint. */
        Path checkpoint();

        /** Its llama2.c tokenizer file. */
        Path tokenizer();
    }

    interface Upstream {
        /** The server's base URL including {@code /v1}, e.g. {@code http://vllm:8000/v1}. */
        String url();

        /** Sent as {@code Authorization: Bearer}. */
        Optional<String> apiKey();

        /** The model name upstream; the public id when absent (aliasing). */
        Optional<String> model();

        /** Reported as {@code max_model_len} in /v1/models when known. */
        Optional<Integer> maxModelLen();

        @WithDefault("5s")
        Duration connectTimeout();

        /** The longest silence while waiting for (more of) the answer; then 504, or an in-band error mid-stream. */
        @WithDefault("120s")
        Duration readTimeout();

        /** Extra attempts on connect errors, 429 and 5xx, never after the first byte reached the client. */
        @WithDefault("1")
        int retries();

        /** Other upstream ids tried, in order, when this one keeps failing before the first byte. */
        Optional<List<String>> fallbacks();

        /**
         * The API the server speaks for {@code POST /v1/responses}: {@code responses} relays it as it is; {@code chat}
         * (default) translates it to a chat completion and the answer back.
         */
        @WithDefault("chat")
        Wire wire();
    }

    enum Wire {
        chat, responses
    }

    interface Responses {
        /** How long a stored response is kept for {@code previous_response_id} and GET (OpenAI keeps 30 days). */
        @WithDefault("30d")
        Duration kept();
    }

    interface Engine {
        /** Worker threads that run the forward passes; never the event loop. */
        @WithDefault("2")
        int threads();

        /** Tokens one generation decodes before yielding its worker, so concurrent requests share the CPU. */
        @WithDefault("8")
        int tokensPerTurn();
    }

    interface Adapters {
        /** Trained checkpoints kept merged in memory at once; the least recently used is dropped first. */
        @WithDefault("4")
        int cacheSize();
    }

    interface Training {
        /**
         * The training-service's base URL, asked about a trained model this gateway has not yet heard of on
         * {@code training.checkpoints}; without one, only that topic tells which checkpoints exist.
         */
        Optional<URI> url();

        /** How long a lookup may take before the request fails with 503. */
        @WithDefault("5s")
        Duration timeout();
    }

    interface Usage {
        /**
         * How long a counted request id is remembered, so that a redelivered usage record is not counted again:
         * at least the retention of {@code inference.usage} (3 days in deploy/, 7 on ./platform's broker), which
         * bounds how late a record can come again. Older ids are forgotten every hour.
         */
        @WithDefault("7d")
        Duration countedRequestsKept();
    }

    interface ProjectRules {
        /** The only models (public names) the project may use; any other answers 403 model_not_found. */
        Optional<List<String>> allowedModels();

        Optional<Long> tokensPerMinute();

        Optional<Long> tokensPerDay();

        /** Prompt + completion tokens the project may use per calendar month (UTC): its monthly budget. */
        Optional<Long> tokensPerMonth();

        Optional<Long> requestsPerMinute();
    }

    interface Limits {
        /** Requests of one project in flight at once; more get 429. */
        @WithDefault("8")
        int concurrentRequestsPerProject();

        /** Prompt + completion tokens one project may use per minute (every project; none when absent). */
        Optional<Long> tokensPerMinute();

        /** Prompt + completion tokens one project may use per day: its daily budget. */
        Optional<Long> tokensPerDay();

        Optional<Long> requestsPerMinute();

        /** Prompt + completion tokens one project may use per calendar month (UTC). */
        Optional<Long> tokensPerMonth();

        /**
         * How stale a replica's copy of the limits set through {@code /v1/limits} may be: it reads them again this
         * often (the replica that changed them reads them at once).
         */
        @WithDefault("5s")
        Duration refresh();

        /**
         * How often a replica writes the requests and tokens it counted against limits in its memory (what the Usage
         * page shows of the other replicas may be this far behind; the limits themselves hold at every moment).
         */
        @WithDefault("1s")
        Duration flush();

        @WithDefault("1")
        int retryAfterSeconds();

        /** The most {@code top_logprobs} a request may ask for (vLLM's max_logprobs). */
        @WithDefault("20")
        int maxLogprobs();
    }
}
