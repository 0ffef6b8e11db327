package org.llmplatform.inference.responses;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two real HTTP upstreams for the Responses API: {@code chat-tools} speaks only chat completions (vLLM's wire) and,
 * offered tools, calls {@code get_weather} until a tool message answers it, then says what the tool said;
 * {@code native-responses} speaks the Responses API itself ({@code wire=responses}) under the upstream name
 * {@code native-model}. Every body each received is kept, newest last.
 */
public class FakeResponsesUpstreams implements QuarkusTestResourceLifecycleManager {

    static final Queue<JsonObject> CHAT_BODIES = new ConcurrentLinkedQueue<>();
    static final Queue<JsonObject> RESPONSES_BODIES = new ConcurrentLinkedQueue<>();
    static final String WEATHER_ARGUMENTS = "{\"city\":\"Paris\"}";

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            if (request.path().endsWith("/chat/completions")) {
                CHAT_BODIES.add(json);
                chat(request, json);
            } else if (request.path().endsWith("/responses")) {
                RESPONSES_BODIES.add(json);
                responses(request, json);
            } else {
                request.response().setStatusCode(404).end();
            }
        }));
        int port;
        try {
            port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        } catch (Exception e) {
            throw new IllegalStateException("the fake upstreams did not start", e);
        }
        String url = "http://127.0.0.1:" + port + "/v1";
        return Map.of("gateway.upstreams.chat-tools.url", url,
                "gateway.upstreams.chat-tools.model", "tool-caller",
                "gateway.upstreams.native-responses.url", url,
                "gateway.upstreams.native-responses.model", "native-model",
                "gateway.upstreams.native-responses.wire", "responses");
    }

    private static void chat(HttpServerRequest request, JsonObject body) {
        JsonArray messages = body.getJsonArray("messages");
        JsonObject last = messages.getJsonObject(messages.size() - 1);
        boolean callTool = body.containsKey("tools") && !"tool".equals(last.getString("role"));
        String text = "tool".equals(last.getString("role")) ? "The tool said: " + last.getString("content") : "Hello there";
        String id = "chatcmpl-" + request.getHeader("X-Request-Id");
        JsonObject usage = new JsonObject().put("prompt_tokens", 9).put("completion_tokens", 4).put("total_tokens", 13);
        if (!body.getBoolean("stream", false)) {
            JsonObject message = new JsonObject().put("role", "assistant");
            if (callTool) {
                message.putNull("content").put("tool_calls", new JsonArray().add(toolCall(0, "call_weather_1", "get_weather",
                        WEATHER_ARGUMENTS)));
            } else {
                message.put("content", text);
            }
            request.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("id", id)
                    .put("object", "chat.completion").put("created", 1).put("model", body.getString("model"))
                    .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
                            .put("finish_reason", callTool ? "tool_calls" : "stop")))
                    .put("usage", usage).encode());
            return;
        }
        HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        response.write(chunk(id, new JsonObject().put("role", "assistant").put("content", ""), null));
        if (callTool) {
            response.write(chunk(id, new JsonObject().put("tool_calls", new JsonArray().add(
                    toolCall(0, "call_weather_1", "get_weather", "{\"city\":"))), null));
            response.write(chunk(id, new JsonObject().put("tool_calls", new JsonArray().add(
                    new JsonObject().put("index", 0).put("function", new JsonObject().put("arguments", "\"Paris\"}")))), null));
            response.write(chunk(id, new JsonObject(), "tool_calls"));
        } else {
            int half = text.length() / 2;
            response.write(chunk(id, new JsonObject().put("content", text.substring(0, half)), null));
            response.write(chunk(id, new JsonObject().put("content", text.substring(half)), "stop"));
        }
        response.write("data: " + new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", 1)
                .put("model", body.getString("model")).put("choices", new JsonArray()).put("usage", usage).encode() + "\n\n");
        response.end("data: [DONE]\n\n");
    }

    private static JsonObject toolCall(int index, String id, String name, String arguments) {
        return new JsonObject().put("index", index).put("id", id).put("type", "function")
                .put("function", new JsonObject().put("name", name).put("arguments", arguments));
    }

    private static String chunk(String id, JsonObject delta, String finishReason) {
        return "data: " + new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", 1)
                .put("model", "tool-caller").put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                        .put("delta", delta).putNull("logprobs").put("finish_reason", finishReason))).encode() + "\n\n";
    }

    private static void responses(HttpServerRequest request, JsonObject body) {
        JsonObject message = new JsonObject().put("id", "msg_native").put("type", "message").put("status", "completed")
                .put("role", "assistant").put("content", new JsonArray().add(new JsonObject().put("type", "output_text")
                        .put("text", "Natively answered").put("annotations", new JsonArray())));
        JsonObject done = new JsonObject().put("id", "resp_native_1").put("object", "response").put("created_at", 1)
                .put("status", "completed").put("model", body.getString("model"))
                .put("output", new JsonArray().add(message))
                .put("usage", new JsonObject().put("input_tokens", 11).put("output_tokens", 3).put("total_tokens", 14));
        if (!body.getBoolean("stream", false)) {
            request.response().putHeader("Content-Type", "application/json").end(done.encode());
            return;
        }
        JsonObject started = done.copy().put("status", "in_progress").put("output", new JsonArray()).putNull("usage");
        HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        JsonObject part = new JsonObject().put("type", "output_text").put("text", "").put("annotations", new JsonArray());
        JsonObject opened = message.copy().put("status", "in_progress").put("content", new JsonArray());
        response.write(event(new JsonObject().put("type", "response.created").put("sequence_number", 0).put("response", started)));
        response.write(event(new JsonObject().put("type", "response.output_item.added").put("sequence_number", 1)
                .put("output_index", 0).put("item", opened)));
        response.write(event(new JsonObject().put("type", "response.content_part.added").put("sequence_number", 2)
                .put("item_id", "msg_native").put("output_index", 0).put("content_index", 0).put("part", part)));
        response.write(event(new JsonObject().put("type", "response.output_text.delta").put("sequence_number", 3)
                .put("item_id", "msg_native").put("output_index", 0).put("content_index", 0).put("delta", "Natively answered")));
        response.write(event(new JsonObject().put("type", "response.output_text.done").put("sequence_number", 4)
                .put("item_id", "msg_native").put("output_index", 0).put("content_index", 0).put("text", "Natively answered")));
        response.write(event(new JsonObject().put("type", "response.output_item.done").put("sequence_number", 5)
                .put("output_index", 0).put("item", message)));
        response.end(event(new JsonObject().put("type", "response.completed").put("sequence_number", 6).put("response", done)));
    }

    private static String event(JsonObject event) {
        return "event: " + event.getString("type") + "\ndata: " + event.encode() + "\n\n";
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
