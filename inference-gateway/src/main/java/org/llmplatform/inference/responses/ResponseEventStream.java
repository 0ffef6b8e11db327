package org.llmplatform.inference.responses;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.SseEvents;

/**
 * A chat completion's SSE stream written as the Responses API's event sequence, each event {@code event: <type>} and
 * its {@code data} with a {@code sequence_number}: {@code response.created}, {@code response.in_progress}, then per
 * output item {@code output_item.added}, for text {@code content_part.added}, {@code output_text.delta}…,
 * {@code output_text.done}, {@code content_part.done}, for a tool call {@code function_call_arguments.delta}…,
 * {@code function_call_arguments.done}, then {@code output_item.done}; it ends with {@code response.completed} (or
 * {@code response.incomplete} when cut by {@code max_output_tokens}) once the response is stored, or with
 * {@code error} and {@code response.failed} when the chat stream reported an error. The chat stream is read at the
 * client's pace: its writes wait while the client's buffer is full.
 */
final class ResponseEventStream implements StreamedBody {

    private static final Logger LOG = Logger.getLogger(ResponseEventStream.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final StreamedBody chat;
    private final ObjectNode response;
    private final ObjectMapper json;
    private final Function<ObjectNode, Uni<Void>> finished;
    private final SseEvents events = new SseEvents();
    private final List<ObjectNode> output = new ArrayList<>();
    private int sequence;
    private ObjectNode openItem;
    private StringBuilder openText;
    private int openToolIndex = -1;
    private String finishReason;
    private JsonNode usage;
    private JsonNode error;

    /**
     * {@code response}: the Response in progress, its output empty; {@code finished}: stores the final Response (or
     * does nothing) before {@code response.completed} is written.
     */
    ResponseEventStream(StreamedBody chat, ObjectNode response, ObjectMapper json, Function<ObjectNode, Uni<Void>> finished) {
        this.chat = chat;
        this.response = response;
        this.json = json;
        this.finished = finished;
    }

    @Override
    public void writeTo(Sink client) {
        StringBuilder opening = new StringBuilder();
        event(opening, "response.created", NODES.objectNode().set("response", response.deepCopy()));
        event(opening, "response.in_progress", NODES.objectNode().set("response", response.deepCopy()));
        client.write(bytes(opening));
        chat.writeTo(new Sink() {
            @Override
            public boolean write(byte[] piece) {
                StringBuilder ours = new StringBuilder();
                for (String payload : events.feed(piece)) {
                    translate(ours, payload);
                }
                return ours.isEmpty() || client.write(bytes(ours));
            }

            @Override
            public void whenWritable(Runnable resume) {
                client.whenWritable(resume);
            }

            @Override
            public void whenClosed(Runnable cancel) {
                client.whenClosed(cancel);
            }

            @Override
            public void end() {
                close(client);
            }

            @Override
            public void fail(Throwable failure) {
                LOG.errorf(failure, "The chat stream of response %s failed", response.path("id").asText());
                error = NODES.objectNode().put("code", "server_error")
                        .put("message", "The server had an error while processing your request");
                close(client);
            }
        });
    }

    private void translate(StringBuilder ours, String payload) {
        if ("[DONE]".equals(payload)) {
            return;
        }
        JsonNode chunk;
        try {
            chunk = json.readTree(payload);
        } catch (JsonProcessingException unreadable) {
            error = NODES.objectNode().put("code", "server_error").put("message", "The model's stream was unreadable");
            return;
        }
        if (chunk.path("error").isObject()) {
            JsonNode cause = chunk.get("error");
            error = NODES.objectNode().put("code", cause.path("code").isTextual() ? cause.get("code").textValue() : "server_error")
                    .put("message", cause.path("message").asText());
            return;
        }
        if (chunk.path("usage").isObject()) {
            usage = chunk.get("usage");
        }
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode delta = choice.path("delta");
        String content = delta.path("content").isTextual() ? delta.get("content").textValue() : "";
        if (!content.isEmpty()) {
            text(ours, content);
        }
        for (JsonNode call : delta.path("tool_calls")) {
            toolCall(ours, call);
        }
        if (choice.path("finish_reason").isTextual()) {
            finishReason = choice.get("finish_reason").textValue();
        }
    }

    private void text(StringBuilder ours, String delta) {
        if (openText == null) {
            closeItem(ours);
            openItem = ResponseShapes.message(ResponseShapes.newId("msg_"), ResponseShapes.IN_PROGRESS, null);
            openText = new StringBuilder();
            added(ours);
            event(ours, "response.content_part.added", part().set("part", ResponseShapes.outputText("")));
        }
        openText.append(delta);
        ObjectNode event = part().put("delta", delta);
        event.putArray("logprobs");
        event(ours, "response.output_text.delta", event);
    }

    private void toolCall(StringBuilder ours, JsonNode call) {
        int index = call.path("index").asInt(0);
        if (openToolIndex != index || openItem == null) {
            closeItem(ours);
            openToolIndex = index;
            openItem = ResponseShapes.functionCall(ResponseShapes.newId("fc_"), ResponseShapes.IN_PROGRESS,
                    call.path("id").asText(ResponseShapes.newId("call_")), call.path("function").path("name").asText(), "");
            added(ours);
        }
        String arguments = call.path("function").path("arguments").asText("");
        if (!arguments.isEmpty()) {
            openItem.put("arguments", openItem.path("arguments").asText() + arguments);
            event(ours, "response.function_call_arguments.delta", item().put("delta", arguments));
        }
    }

    private void added(StringBuilder ours) {
        event(ours, "response.output_item.added", NODES.objectNode().put("output_index", output.size())
                .set("item", openItem.deepCopy()));
    }

    /** Ends the item being written, if any, with its closing events. */
    private void closeItem(StringBuilder ours) {
        if (openItem == null) {
            return;
        }
        if (openText != null) {
            String text = openText.toString();
            ObjectNode done = part().put("text", text);
            done.putArray("logprobs");
            event(ours, "response.output_text.done", done);
            event(ours, "response.content_part.done", part().set("part", ResponseShapes.outputText(text)));
            openItem.withArray("content").add(ResponseShapes.outputText(text));
        } else {
            event(ours, "response.function_call_arguments.done", item().put("name", openItem.path("name").asText())
                    .put("arguments", openItem.path("arguments").asText()));
        }
        openItem.put("status", ResponseShapes.COMPLETED);
        event(ours, "response.output_item.done", NODES.objectNode().put("output_index", output.size())
                .set("item", openItem.deepCopy()));
        output.add(openItem);
        openItem = null;
        openText = null;
        openToolIndex = -1;
    }

    private void close(Sink client) {
        StringBuilder ours = new StringBuilder();
        if (error != null) {
            ObjectNode failed = ResponseShapes.finish(response, output, null, usage).put("status", ResponseShapes.FAILED);
            failed.set("error", error);
            event(ours, "error", NODES.objectNode().put("code", error.path("code").asText())
                    .put("message", error.path("message").asText()).putNull("param"));
            event(ours, "response.failed", NODES.objectNode().set("response", failed));
            client.write(bytes(ours));
            client.end();
            return;
        }
        closeItem(ours);
        ObjectNode done = ResponseShapes.finish(response, output, finishReason, usage);
        finished.apply(done).subscribe().with(stored -> {
            event(ours, ResponseShapes.INCOMPLETE.equals(done.path("status").asText()) ? "response.incomplete"
                    : "response.completed", NODES.objectNode().set("response", done));
            client.write(bytes(ours));
            client.end();
        }, client::fail);
    }

    private ObjectNode item() {
        return NODES.objectNode().put("item_id", openItem.path("id").asText()).put("output_index", output.size());
    }

    private ObjectNode part() {
        return item().put("content_index", 0);
    }

    private void event(StringBuilder ours, String type, ObjectNode fields) {
        ObjectNode event = NODES.objectNode().put("type", type);
        event.setAll(fields);
        event.put("sequence_number", sequence++);
        try {
            ours.append("event: ").append(type).append("\ndata: ").append(json.writeValueAsString(event)).append("\n\n");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event could not be serialised", e);
        }
    }

    private static byte[] bytes(CharSequence text) {
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
