package org.llmplatform.inference.checkpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.testing.HttpStandIn;

/**
 * A stand-in for the training-service's {@code GET /v1/preview/serving-checkpoints/{entity}/{project}/{name}[?step=N]},
 * which {@code gateway.training.url} points at in tests: a model whose name starts with {@code acknowledged} exists
 * (step 3 is its latest) on the base model without adapter, one starting with {@code failing} makes it answer 500,
 * any other is unknown (404). {@code GET /lookups} lists every lookup so far ({@code uri}, {@code authorization}).
 * The real pair, training-service and gateway, is tested end to end in local-stack's {@code ArtTrainingEndToEndTest}.
 */
public class TrainingStandIn extends HttpStandIn {

    public static final String URL_PROPERTY = "gateway.training.url";
    private static final String PATH = "/v1/preview/serving-checkpoints/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Map<String, String>> lookups = new ArrayList<>();
    @Override
    protected void serve(HttpServer server) {
        server.createContext(PATH, this::lookUp);
        server.createContext("/lookups", exchange -> {
            synchronized (lookups) {
                reply(exchange, 200, lookups);
            }
        });
    }

    @Override
    protected Map<String, String> config(URI base) {
        return Map.of(URL_PROPERTY, base.toString());
    }

    private void lookUp(HttpExchange exchange) throws IOException {
        synchronized (lookups) {
            lookups.add(Map.of("uri", exchange.getRequestURI().toString(),
                    "authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"))));
        }
        String[] name = exchange.getRequestURI().getPath().substring(PATH.length()).split("/");
        String query = exchange.getRequestURI().getQuery();
        int step = query == null ? 3 : Integer.parseInt(query.substring("step=".length()));
        if (name[2].startsWith("failing")) {
            reply(exchange, 500, Map.of("detail", "Internal Server Error"));
        } else if (name[2].startsWith("acknowledged") && step <= 3) {
            Map<String, Object> saved = new LinkedHashMap<>();
            saved.put("schema_version", 1);
            saved.put("model_id", "model-" + name[2]);
            saved.put("entity", name[0]);
            saved.put("project", name[1]);
            saved.put("model_name", name[2]);
            saved.put("base_model", "stories260K");
            saved.put("step", step);
            saved.put("artifact_uri", null);
            reply(exchange, 200, saved);
        } else {
            reply(exchange, 404, Map.of("detail", "Model not found"));
        }
    }

    private static void reply(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
