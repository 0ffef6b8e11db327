package org.llmplatform.inference.upstream;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server speaking vLLM's chat-completions format, with one upstream model per behaviour:
 * {@code vllm-small} answers (and checks its key), {@code flaky} fails its first attempt with 503,
 * {@code always-503} always fails, {@code rejecting} answers 400 with an OpenAI error,
 * {@code truncated} ends its stream without [DONE], {@code slow} never answers, {@code delayed} answers
 * after {@link #DELAY_MS}, {@code endless} streams a chunk every 20 ms until its client leaves (counted
 * in {@link #ENDLESS_STREAMS_LEFT}).
 */
public class FakeVllmServer implements QuarkusTestResourceLifecycleManager {

    static final String KEY = "upstream-secret";
    static final long DELAY_MS = 400;
    static final AtomicInteger ENDLESS_STREAMS_LEFT = new AtomicInteger();

    private Vertx vertx;
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body ->
                answer(request, body.toJsonObject())));
        int port;
        try {
            port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        } catch (Exception e) {
            throw new IllegalStateException("the fake vLLM server did not start", e);
        }
        String url = "http://127.0.0.1:" + port + "/v1";
        Map<String, String> config = new HashMap<>();
        upstream(config, "upstream-small", url);
        config.put("gateway.upstreams.upstream-small.model", "vllm-small");
        config.put("gateway.upstreams.upstream-small.api-key", KEY);
        config.put("gateway.upstreams.upstream-small.max-model-len", "4096");
        upstream(config, "flaky", url);
        upstream(config, "always-503", url);
        upstream(config, "rejecting", url);
        upstream(config, "truncated", url);
        upstream(config, "slow", url);
        upstream(config, "delayed", url);
        upstream(config, "endless", url);
        config.put("gateway.upstreams.slow.read-timeout", "500ms");
        config.put("gateway.upstreams.slow.retries", "0");
        upstream(config, "unreachable", "http://127.0.0.1:1/v1");
        config.put("gateway.upstreams.unreachable.retries", "0");
        upstream(config, "primary-down", "http://127.0.0.1:1/v1");
        config.put("gateway.upstreams.primary-down.retries", "0");
        config.put("gateway.upstreams.primary-down.fallbacks", "upstream-small");
        return config;
    }

    private static void upstream(Map<String, String> config, String id, String url) {
        config.put("gateway.upstreams." + id + ".url", url);
    }

    private void answer(HttpServerRequest request, JsonObject body) {
        String model = body.getString("model");
        boolean stream = body.getBoolean("stream", false);
        if (request.path().endsWith("/v1/completions") || request.path().endsWith("/v1/embeddings")) {
            legacyOrEmbeddings(request, body, model, stream);
            return;
        }
        String id = "chatcmpl-" + request.getHeader("X-Request-Id");
        switch (model) {
            case "vllm-small" -> {
                if (!("Bearer " + KEY).equals(request.getHeader("Authorization"))) {
                    request.response().setStatusCode(401).end(new JsonObject().put("error", "Unauthorized").encode());
                } else if (stream) {
                    stream(request, id, model, body, true);
                } else {
                    request.response().putHeader("Content-Type", "application/json").end(completion(id, model).encode());
                }
            }
            case "flaky" -> {
                if (attempts.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet() == 1) {
                    request.response().setStatusCode(503).end("{\"error\":{\"message\":\"overloaded\"}}");
                } else {
                    request.response().putHeader("Content-Type", "application/json").end(completion(id, model).encode());
                }
            }
            case "always-503" -> request.response().setStatusCode(503).end("busy");
            case "rejecting" -> request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("error", new JsonObject().put("message", "temperature must be non-negative, got -1.0.")
                            .put("type", "BadRequestError").putNull("param").putNull("code")).encode());
            case "truncated" -> stream(request, id, model, body, false);
            case "endless" -> endless(request, id, model);
            case "delayed" -> vertx.setTimer(DELAY_MS, ignored -> request.response()
                    .putHeader("Content-Type", "application/json").end(completion(id, model).encode()));
            default -> {
                // "slow": never answers
            }
        }
    }

    /**
     * {@code /v1/completions} and {@code /v1/embeddings} of {@code vllm-small}: a text completion "Hello there"
     * (streamed in two chunks, then its usage chunk when asked), one 3-float embedding per input; 404 otherwise.
     */
    private static void legacyOrEmbeddings(HttpServerRequest request, JsonObject body, String model, boolean stream) {
        if (!"vllm-small".equals(model) || !("Bearer " + KEY).equals(request.getHeader("Authorization"))) {
            request.response().setStatusCode(404).end(new JsonObject().put("error", new JsonObject()
                    .put("message", "The model `" + model + "` does not exist.")).encode());
            return;
        }
        JsonObject usage = new JsonObject().put("prompt_tokens", 4).put("completion_tokens", 2).put("total_tokens", 6);
        if (request.path().endsWith("/v1/embeddings")) {
            int inputs = body.getValue("input") instanceof JsonArray list ? list.size() : 1;
            JsonArray data = new JsonArray();
            for (int i = 0; i < inputs; i++) {
                data.add(new JsonObject().put("index", i).put("object", "embedding")
                        .put("embedding", new JsonArray().add(0.6).add(0.8).add(0.0)));
            }
            request.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                    .put("id", "embd-" + request.getHeader("X-Request-Id")).put("object", "list").put("created", 1)
                    .put("model", model).put("data", data)
                    .put("usage", new JsonObject().put("prompt_tokens", 3 * inputs).put("total_tokens", 3 * inputs)
                            .put("completion_tokens", 0)).encode());
            return;
        }
        String id = "cmpl-" + request.getHeader("X-Request-Id");
        if (!stream) {
            request.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("id", id)
                    .put("object", "text_completion").put("created", 1).put("model", model)
                    .put("choices", new JsonArray().add(textChoice("Hello there", "length")))
                    .put("usage", usage).encode());
            return;
        }
        var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        for (JsonObject choice : new JsonObject[] {textChoice("Hello", null), textChoice(" there", "length")}) {
            response.write(event(new JsonObject().put("id", id).put("object", "text_completion").put("created", 1)
                    .put("model", model).put("choices", new JsonArray().add(choice)).encode()));
        }
        if (body.getJsonObject("stream_options", new JsonObject()).getBoolean("include_usage", false)) {
            response.write(event(new JsonObject().put("id", id).put("object", "text_completion").put("created", 1)
                    .put("model", model).put("choices", new JsonArray()).put("usage", usage).encode()));
        }
        response.end("data: [DONE]\n\n");
    }

    private static JsonObject textChoice(String text, String finishReason) {
        return new JsonObject().put("index", 0).put("text", text).putNull("logprobs").put("finish_reason", finishReason);
    }

    private static JsonObject completion(String id, String model) {
        return new JsonObject().put("id", id).put("object", "chat.completion").put("created", 1).put("model", model)
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                        .put("message", new JsonObject().put("role", "assistant").put("content", "Hello there"))
                        .putNull("logprobs").put("finish_reason", "stop")))
                .put("usage", new JsonObject().put("prompt_tokens", 5).put("completion_tokens", 2).put("total_tokens", 7));
    }

    private static void stream(HttpServerRequest request, String id, String model, JsonObject body, boolean complete) {
        var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        response.write(event(chunk(id, model, new JsonObject().put("role", "assistant").put("content", ""), null)));
        response.write(event(chunk(id, model, new JsonObject().put("content", "Hello"), null)));
        if (!complete) {
            request.connection().close();
            return;
        }
        response.write(event(chunk(id, model, new JsonObject().put("content", " there"), "stop")));
        if (body.getJsonObject("stream_options", new JsonObject()).getBoolean("include_usage", false)) {
            response.write(event(new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", 1)
                    .put("model", model).put("choices", new JsonArray())
                    .put("usage", new JsonObject().put("prompt_tokens", 5).put("completion_tokens", 2).put("total_tokens", 7))
                    .encode()));
        }
        response.end("data: [DONE]\n\n");
    }

    private void endless(HttpServerRequest request, String id, String model) {
        var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        long timer = vertx.setPeriodic(20, ignored ->
                response.write(event(chunk(id, model, new JsonObject().put("content", "more"), null))));
        response.closeHandler(ignored -> {
            vertx.cancelTimer(timer);
            ENDLESS_STREAMS_LEFT.incrementAndGet();
        });
    }

    private static String chunk(String id, String model, JsonObject delta, String finishReason) {
        return new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", 1).put("model", model)
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
                        .putNull("logprobs").put("finish_reason", finishReason)))
                .encode();
    }

    private static String event(String json) {
        return "data: " + json + "\n\n";
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
