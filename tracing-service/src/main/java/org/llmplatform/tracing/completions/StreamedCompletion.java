package org.llmplatform.tracing.completions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code chat.completion} a stream of {@code chat.completion.chunk}s adds up to, as the tracked
 * call's output: each choice's role, content, tool calls (arguments concatenated) and finish reason,
 * and the usage of the usage chunk. A chunk with an {@code error} key is the stream's failure.
 */
final class StreamedCompletion {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] HEADER_KEYS = {"id", "created", "model", "system_fingerprint"};

    private final ObjectNode header = NODES.objectNode();
    private final Map<Integer, Choice> choices = new TreeMap<>();
    private JsonNode usage;
    private String error;

    private static final class Choice {
        String role = "assistant";
        StringBuilder content;
        final Map<Integer, ObjectNode> toolCalls = new TreeMap<>();
        JsonNode finishReason = NODES.nullNode();
    }

    void add(JsonNode chunk) {
        if (chunk.hasNonNull("error")) {
            fail(GatewayError.messageOf(chunk).orElse(chunk.toString()));
            return;
        }
        for (String key : HEADER_KEYS) {
            if (chunk.hasNonNull(key) && !header.has(key)) {
                header.set(key, chunk.get(key));
            }
        }
        if (chunk.path("usage").isObject()) {
            usage = chunk.get("usage");
        }
        for (JsonNode choice : chunk.path("choices")) {
            addChoice(choice);
        }
    }

    void fail(String message) {
        if (error == null) {
            error = message;
        }
    }

    String error() {
        return error;
    }

    JsonNode usage() {
        return usage;
    }

    ObjectNode output() {
        ObjectNode output = NODES.objectNode();
        output.set("id", header.get("id"));
        output.put("object", "chat.completion");
        output.set("created", header.get("created"));
        output.set("model", header.get("model"));
        if (header.has("system_fingerprint")) {
            output.set("system_fingerprint", header.get("system_fingerprint"));
        }
        var list = output.putArray("choices");
        choices.forEach((index, choice) -> {
            ObjectNode entry = list.addObject().put("index", index);
            ObjectNode message = entry.putObject("message").put("role", choice.role);
            message.put("content", choice.content == null ? null : choice.content.toString());
            if (!choice.toolCalls.isEmpty()) {
                choice.toolCalls.values().forEach(message.putArray("tool_calls")::add);
            }
            entry.set("finish_reason", choice.finishReason);
        });
        if (usage != null) {
            output.set("usage", usage);
        }
        return output;
    }

    private void addChoice(JsonNode chunkChoice) {
        Choice choice = choices.computeIfAbsent(chunkChoice.path("index").asInt(0), ignored -> new Choice());
        JsonNode delta = chunkChoice.path("delta");
        if (delta.path("role").isTextual()) {
            choice.role = delta.get("role").asText();
        }
        if (delta.path("content").isTextual()) {
            if (choice.content == null) {
                choice.content = new StringBuilder();
            }
            choice.content.append(delta.get("content").asText());
        }
        int position = 0;
        for (JsonNode toolCall : delta.path("tool_calls")) {
            addToolCall(choice, toolCall.path("index").asInt(position++), toolCall);
        }
        if (chunkChoice.hasNonNull("finish_reason")) {
            choice.finishReason = chunkChoice.get("finish_reason");
        }
    }

    private static void addToolCall(Choice choice, int index, JsonNode part) {
        ObjectNode call = choice.toolCalls.computeIfAbsent(index, ignored -> NODES.objectNode().put("index", index));
        if (part.hasNonNull("id")) {
            call.set("id", part.get("id"));
        }
        if (part.hasNonNull("type")) {
            call.set("type", part.get("type"));
        }
        JsonNode function = part.path("function");
        if (function.isObject()) {
            ObjectNode merged = call.has("function") ? (ObjectNode) call.get("function") : call.putObject("function");
            if (function.hasNonNull("name")) {
                merged.set("name", function.get("name"));
            }
            if (function.path("arguments").isTextual()) {
                merged.put("arguments", merged.path("arguments").asText("") + function.get("arguments").asText());
            }
        }
    }
}
