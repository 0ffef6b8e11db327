package org.llmplatform.localstack;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * How each client reaches the platform through the console's one origin: the lines {@code ./platform} prints
 * when it is ready, with the development key, and the README shows with {@code <key>}. The settings are the
 * ones the clients themselves read (docs/local-stack.md#getting-started says where each comes from).
 */
final class GettingStarted {

    /** The project the examples trace into: the dev user's own entity. */
    static final String PROJECT = DevCredentials.DEV_USER + "/my-app";

    private GettingStarted() {
    }

    /**
     * The lines for a console at {@code origin} ({@code http://localhost:8000}) that also answers at {@code httpsOrigin},
     * a key, and the model served, if any. The Weave TypeScript SDK writes its call links as https://(WANDB_BASE_URL's
     * host), whatever that URL's scheme, so it is given the HTTPS origin; the Python SDK keeps the scheme.
     */
    static List<String> lines(URI origin, URI httpsOrigin, String key, Optional<String> model) {
        String base = origin.toString().replaceAll("/$", "");
        String links = httpsOrigin.toString().replaceAll("/$", "");
        return List.of(
                "Point every client at " + base + " (the console relays every API):",
                "  Weave TypeScript SDK:  WF_TRACE_SERVER_URL=" + base + " WANDB_API_KEY=" + key + " WANDB_BASE_URL=" + links,
                "  Weave Python SDK:      WF_TRACE_SERVER_URL=" + base + " WANDB_API_KEY=" + key + " WANDB_BASE_URL=" + base,
                "      then weave.init('" + PROJECT + "'); the link printed for each call opens it in the console",
                "  OpenAI SDKs:    OPENAI_BASE_URL=" + base + "/v1 OPENAI_API_KEY=" + key,
                "      header Compat-Project: " + PROJECT + " (the project its usage goes to)"
                        + model.map(id -> "; model \"" + id + "\"").orElse(""),
                "  OTLP exporter:  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + base + "/otel/v1/traces",
                "                  OTEL_EXPORTER_OTLP_TRACES_HEADERS=wandb-api-key=" + key + ",project_id=" + PROJECT,
                "  ART:            ServerlessBackend(base_url=\"" + base + "/v1\", api_key=\"" + key + "\")");
    }
}
