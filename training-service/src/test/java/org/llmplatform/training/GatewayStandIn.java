package org.llmplatform.training;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.llmplatform.testing.HttpStandIn;

/**
 * A stand-in for the inference-gateway's HTTP surface, which {@code training.inference.url} points at in tests: it
 * answers with what reached it (method, path, headers, body) under a status and headers a pass-through must keep,
 * streams an SSE answer whose second event waits until the test asks for it ({@code POST /release/<X-Request-Id>}),
 * and hangs up on {@code /v1/models/hang-up}. The real gateway behind the training URL is tested end to end in
 * local-stack's {@code ArtTrainingEndToEndTest}.
 */
public class GatewayStandIn extends HttpStandIn {

    public static final String URL_PROPERTY = "training.inference.url";
    public static final String FIRST_EVENT = "data: {\"event\":1}";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, CountDownLatch> heldStreams = new ConcurrentHashMap<>();

    @Override
    protected void serve(HttpServer server) {
        server.createContext("/v1/", this::answer);
        server.createContext("/release/", exchange -> {
            held(exchange.getRequestURI().getPath().substring("/release/".length())).countDown();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
    }

    @Override
    protected Map<String, String> config(URI base) {
        return Map.of(URL_PROPERTY, base.toString());
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (path.equals("/v1/models/hang-up")) {
            exchange.close();
            return;
        }
        String requestId = exchange.getRequestHeaders().getFirst("X-Request-Id");
        exchange.getResponseHeaders().add("X-Request-Id", String.valueOf(requestId));
        if (body.contains("\"stream\":true")) {
            stream(exchange, held(requestId));
            return;
        }
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("method", exchange.getRequestMethod());
        seen.put("uri", exchange.getRequestURI().toString());
        seen.put("authorization", exchange.getRequestHeaders().getFirst("Authorization"));
        seen.put("compat_project", exchange.getRequestHeaders().getFirst("Compat-Project"));
        seen.put("content_type", exchange.getRequestHeaders().getFirst("Content-Type"));
        seen.put("accept", exchange.getRequestHeaders().getFirst("Accept"));
        seen.put("body", body);
        byte[] answer = JSON.writeValueAsBytes(seen);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Retry-After", "7");
        exchange.sendResponseHeaders(418, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private static void stream(HttpExchange exchange, CountDownLatch release) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.write((FIRST_EVENT + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        try {
            if (release.await(20, TimeUnit.SECONDS)) {
                out.write("data: {\"event\":2}\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.close();
    }

    private CountDownLatch held(String requestId) {
        return heldStreams.computeIfAbsent(String.valueOf(requestId), id -> new CountDownLatch(1));
    }
}
