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

    /** The lines for a console at {@code origin} ({@code http://localhost:8000}) and a key; the model served, if any. */
    static List<String> lines(URI origin, String key, Optional<String> model) {
        String base = origin.toString().replaceAll("/$", "");
        return List.of(
                "Point every client at " + base + " (the console relays every API):",
                "  Weave SDKs (TypeScript, Python):  WF_TRACE_SERVER_URL=" + base + " WANDB_BASE_URL=" + base + " WANDB_API_KEY=" + key,
                "      then weave.init('" + PROJECT + "'); the link each traced call prints opens it in the console",
                "  OpenAI SDKs:    OPENAI_BASE_URL=" + base + "/v1 OPENAI_API_KEY=" + key,
                "      header Compat-Project: " + PROJECT + " (the project its usage goes to)"
                        + model.map(id -> "; model \"" + id + "\"").orElse(""),
                "  OTLP exporter:  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + base + "/otel/v1/traces",
                "                  OTEL_EXPORTER_OTLP_TRACES_HEADERS=wandb-api-key=" + key + ",project_id=" + PROJECT,
                "  ART:            ServerlessBackend(base_url=\"" + base + "/v1\", api_key=\"" + key + "\")");
    }
}
