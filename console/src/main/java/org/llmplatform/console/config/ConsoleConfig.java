package org.llmplatform.console.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The console's settings: which service answers which API path prefix. */
@ConfigMapping(prefix = "console")
public interface ConsoleConfig {

    /** The services behind the console's origin, by name ({@code tracing}, {@code inference}, …). */
    Map<String, Upstream> upstreams();

    /** How long connecting to a service may take before the caller gets a 502. */
    @WithDefault("5s")
    Duration connectTimeout();

    interface Upstream {

        /**
         * The service's base URL, a request's path and query appended to it; or the base URLs of its replicas,
         * separated by commas, which requests take in turn (a replica that refuses the connection is passed over).
         */
        List<URI> url();

        /**
         * The path prefixes this service answers, each a whole path segment ({@code /calls} matches
         * {@code /calls} and {@code /calls/stream_query}, not {@code /callsx}); the longest match wins.
         */
        List<String> prefixes();

        /** The shape of the 502 body when the service does not answer: that of the API it serves. */
        @WithDefault("detail")
        ErrorBody errorBody();
    }

    enum ErrorBody {
        /** FastAPI's {@code {"detail": …}}, which the training and automation APIs use. */
        DETAIL,
        /** The tracing API's {@code {"reason": …}}. */
        REASON,
        /** OpenAI's {@code {"error": {"message", "type"}}}, for the {@code /v1} APIs. */
        OPENAI
    }
}
