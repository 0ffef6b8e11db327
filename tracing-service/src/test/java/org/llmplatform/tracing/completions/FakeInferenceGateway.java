package org.llmplatform.tracing.completions;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.testing.PlatformTestResources;

/**
 * A real HTTP server speaking the gateway's OpenAI/vLLM chat-completions format (JSON and SSE), one
 * behaviour per model: {@code echo-model} answers "echo: <last message>" (401 without a Bearer key),
 * {@code tool-model} streams a tool call in pieces, {@code invalid-model} refuses the body with the
 * gateway's 422, {@code broken-model} answers 502, {@code midstream-error} fails in-band mid-stream.
 * {@code metered-model} answers as {@code echo-model} and, as the gateway does for every request, publishes
 * the request's usage record on {@code inference.usage} (keyed by project, naming the call of the
 * {@code X-Weave-Call-Id} header) before it answers, so records follow the order of the requests.
 * What it received is kept per {@code Compat-Project}.
 */
public class FakeInferenceGateway implements QuarkusTestResourceLifecycleManager {

    /** A request as the gateway saw it. */
    public record Received(String authorization, String project, JsonObject body) {
    }

    public static final String METERED_MODEL = "metered-model";

    private static final Map<String, Received> RECEIVED = new ConcurrentHashMap<>();

    private Vertx vertx;
    private KafkaProducer<String, String> usageRecords;

    public static Received lastFor(String project) {
        return RECEIVED.get(project);
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            String project = request.getHeader("Compat-Project");
            if (project != null) {
                RECEIVED.put(project, new Received(request.getHeader("Authorization"), project, json));
            }
            if (METERED_MODEL.equals(json.getString("model")) && project != null) {
                vertx.executeBlocking(() -> publishUsage(project, request.getHeader(UsageRecord.WEAVE_CALL_HEADER), json))
                        .onComplete(published -> answer(request, json));
            } else {
                answer(request, json);
            }
        }));
        try {
            int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS).actualPort();
            return Map.of("platform.inference.url", "http://127.0.0.1:" + port);
        } catch (Exception e) {
            throw new IllegalStateException("the fake inference gateway did not start", e);
        }
    }

    private synchronized Void publishUsage(String project, String weaveCallId, JsonObject body) throws Exception {
        if (usageRecords == null) {
            Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers());
            usageRecords = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        }
        Instant now = Instant.now();
        JsonObject usage = new JsonObject().put("schema_version", UsageRecord.SCHEMA_VERSION)
                .put("request_id", "chatcmpl-" + UUID.randomUUID()).put("project_id", project).putNull("user_id")
                .put("model", body.getString("model")).put("prompt_tokens", 3).put("completion_tokens", 2)
                .put("latency_ms", 1).put("status", "success").put("started_at", now.toString())
                .put("ended_at", now.toString()).put("weave_call_id", weaveCallId);
        usageRecords.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, project, usage.encode())).get(10, TimeUnit.SECONDS);
        return null;
    }

    private static void answer(HttpServerRequest request, JsonObject body) {
        HttpServerResponse response = request.response();
        if (!request.path().equals("/v1/chat/completions")) {
            response.setStatusCode(404).end(new JsonObject().put("detail", "Not Found").encode());
            return;
        }
        String authorization = request.getHeader("Authorization");
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            error(response, 401, "Missing API key", "authentication_error");
            return;
        }
        boolean stream = body.getBoolean("stream", false);
        String model = body.getString("model");
        switch (model) {
            case "echo-model", METERED_MODEL -> {
                String text = "echo: " + lastMessage(body);
                if (stream) {
                    stream(response, body, model, text);
                } else {
                    response.putHeader("Content-Type", "application/json").end(completion(model, text).encode());
                }
            }
            case "tool-model" -> streamToolCall(response, model);
            case "invalid-model" -> response.setStatusCode(422).putHeader("Content-Type", "application/json")
                    .end(new JsonObject()
                            .put("detail", new JsonArray().add(new JsonObject().put("type", "greater_than_equal")
                                    .put("loc", new JsonArray().add("body").add("temperature"))
                                    .put("msg", "Input should be greater than or equal to 0").put("input", -1)))
                            .put("error", new JsonObject().put("message",
                                            "body.temperature: Input should be greater than or equal to 0")
                                    .put("type", "BadRequestError").putNull("param").put("code", "400"))
                            .encode());
            case "broken-model" -> error(response, 502, "The upstream server failed", "BadGatewayError");
            case "midstream-error" -> {
                start(response);
                response.write(event(chunk(model, new JsonObject().put("role", "assistant").put("content", "partial"), null)));
                response.write(event(new JsonObject().put("error", new JsonObject().put("message", "engine died")
                        .put("type", "InternalServerError").put("code", 500)).encode()));
                response.end("data: [DONE]\n\n");
            }
            default -> error(response, 404, "The model `" + model + "` does not exist.", "NotFoundError");
        }
    }

    private static String lastMessage(JsonObject body) {
        JsonArray messages = body.getJsonArray("messages", new JsonArray());
        return messages.isEmpty() ? "" : messages.getJsonObject(messages.size() - 1).getString("content", "");
    }

    private static JsonObject usage() {
        return new JsonObject().put("prompt_tokens", 3).put("completion_tokens", 2).put("total_tokens", 5);
    }

    private static JsonObject completion(String model, String text) {
        return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 1700000000)
                .put("model", model)
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                        .put("message", new JsonObject().put("role", "assistant").put("content", text))
                        .putNull("logprobs").put("finish_reason", "stop")))
                .put("usage", usage());
    }

    private static void stream(HttpServerResponse response, JsonObject body, String model, String text) {
        start(response);
        response.write(event(chunk(model, new JsonObject().put("role", "assistant").put("content", ""), null)));
        int middle = text.length() / 2;
        response.write(event(chunk(model, new JsonObject().put("content", text.substring(0, middle)), null)));
        response.write(event(chunk(model, new JsonObject().put("content", text.substring(middle)), null)));
        response.write(event(chunk(model, new JsonObject(), "stop")));
        if (body.getJsonObject("stream_options", new JsonObject()).getBoolean("include_usage", false)) {
            response.write(event(new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                    .put("created", 1700000000).put("model", model).put("choices", new JsonArray())
                    .put("usage", usage()).encode()));
        }
        response.end("data: [DONE]\n\n");
    }

    private static void streamToolCall(HttpServerResponse response, String model) {
        start(response);
        JsonObject first = new JsonObject().put("index", 0).put("id", "call_1").put("type", "function")
                .put("function", new JsonObject().put("name", "get_weather").put("arguments", "{\"city\":"));
        JsonObject second = new JsonObject().put("index", 0)
                .put("function", new JsonObject().put("arguments", "\"Paris\"}"));
        response.write(event(chunk(model, new JsonObject().put("role", "assistant")
                .put("tool_calls", new JsonArray().add(first)), null)));
        response.write(event(chunk(model, new JsonObject().put("tool_calls", new JsonArray().add(second)), null)));
        response.write(event(chunk(model, new JsonObject(), "tool_calls")));
        response.end("data: [DONE]\n\n");
    }

    private static void start(HttpServerResponse response) {
        response.setChunked(true).putHeader("Content-Type", "text/event-stream");
    }

    private static String chunk(String model, JsonObject delta, String finishReason) {
        return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1700000000)
                .put("model", model)
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
                        .putNull("logprobs").put("finish_reason", finishReason)))
                .encode();
    }

    private static String event(String json) {
        return "data: " + json + "\n\n";
    }

    private static void error(HttpServerResponse response, int status, String message, String type) {
        response.setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", new JsonObject().put("message", message).put("type", type)
                        .putNull("param").put("code", String.valueOf(status))).encode());
    }

    @Override
    public void stop() {
        if (usageRecords != null) {
            usageRecords.close();
        }
        if (vertx != null) {
            vertx.close();
        }
    }
}
