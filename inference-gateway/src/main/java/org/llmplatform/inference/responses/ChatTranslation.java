package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A Responses request as the chat completion that answers it, for the embedded engine and the upstreams that speak
 * only the chat wire (docs/inference-gateway.md#the-responses-api): {@code instructions} become the first system
 * message, message items messages ({@code developer} as {@code system}, text parts joined; with an image or a file,
 * the chat wire's content parts), {@code function_call}
 * items an assistant message's {@code tool_calls} and {@code function_call_output} items {@code tool} messages;
 * function tools become chat tools and {@code tool_choice} theirs, {@code text.format} the {@code response_format},
 * {@code max_output_tokens}
 * {@code max_tokens}. Items and tools the chat wire cannot carry (reasoning, the built-in tools) are left out.
 */
final class ChatTranslation {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ChatTranslation() {
    }

    /** {@code conversation}: the items of the responses it continues, then its own input. */
    static ObjectNode toChat(ResponsesRequest request, List<JsonNode> conversation) {
        ObjectNode chat = NODES.objectNode().put("model", request.model());
        ArrayNode messages = chat.putArray("messages");
        JsonNode instructions = request.field("instructions");
        if (instructions != null) {
            messages.addObject().put("role", "system").put("content", instructions.textValue());
        }
        for (JsonNode item : conversation) {
            addItem(messages, item);
        }
        copy(request, "max_output_tokens", chat, "max_tokens");
        copy(request, "temperature", chat, "temperature");
        copy(request, "top_p", chat, "top_p");
        copy(request, "user", chat, "user");
        copy(request, "parallel_tool_calls", chat, "parallel_tool_calls");
        JsonNode effort = request.body().path("reasoning").path("effort");
        if (effort.isTextual()) {
            chat.put("reasoning_effort", effort.textValue());
        }
        tools(request, chat);
        responseFormat(request, chat);
        if (request.stream()) {
            chat.put("stream", true);
            chat.putObject("stream_options").put("include_usage", true);
        }
        return chat;
    }

    private static void addItem(ArrayNode messages, JsonNode item) {
        switch (item.path("type").asText("message")) {
            case "message" -> {
                String role = item.path("role").asText();
                messages.addObject().put("role", "developer".equals(role) ? "system" : role)
                        .set("content", content(item.get("content"), "input[].content"));
            }
            case "function_call" -> {
                ObjectNode call = NODES.objectNode().put("id", item.path("call_id").asText()).put("type", "function");
                call.putObject("function").put("name", item.path("name").asText())
                        .put("arguments", item.path("arguments").asText());
                JsonNode last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
                if (last != null && last.path("tool_calls").isArray()) {
                    ((ArrayNode) last.get("tool_calls")).add(call);
                } else {
                    ObjectNode assistant = messages.addObject().put("role", "assistant");
                    assistant.putNull("content");
                    assistant.putArray("tool_calls").add(call);
                }
            }
            case "function_call_output" -> messages.addObject().put("role", "tool")
                    .put("tool_call_id", item.path("call_id").asText())
                    .put("content", text(item.get("output"), "input[].output"));
            case "item_reference" -> throw ResponsesRequestParser.invalid("invalid_value", "input",
                    "Item references are not supported by this model: send the item itself.");
            default -> {
                // reasoning items and the built-in tools' calls have no chat form
            }
        }
    }

    /**
     * A string as it is; content parts as the text of the parts joined when all are text, else as the chat wire's
     * parts ({@link #parts}).
     */
    private static JsonNode content(JsonNode content, String param) {
        if (content == null || content.isNull()) {
            return NODES.textNode("");
        }
        if (content.isTextual()) {
            return content;
        }
        ArrayNode parts = parts(content, param);
        StringBuilder text = new StringBuilder();
        for (JsonNode part : parts) {
            if (!"text".equals(part.path("type").asText())) {
                return parts;
            }
            text.append(part.path("text").asText());
        }
        return NODES.textNode(text.toString());
    }

    /** The text of a string or of text parts (parts map one to one); a part that is not text has no place there. */
    private static String text(JsonNode content, String param) {
        JsonNode converted = content(content, param);
        if (converted.isTextual()) {
            return converted.textValue();
        }
        int notText = 0;
        while ("text".equals(converted.get(notText).path("type").asText())) {
            notText++;
        }
        throw notSupported(content.get(notText).path("type").asText(), param);
    }

    /**
     * Content parts as the chat wire's: text as {@code text}, {@code input_image} as {@code image_url} (its URL, a
     * {@code data:} URL too, and detail), {@code input_file} as {@code file} (its data, id and name). An image by file
     * id and a file by URL have no chat form.
     */
    private static ArrayNode parts(JsonNode content, String param) {
        ArrayNode parts = NODES.arrayNode();
        for (JsonNode part : content) {
            String type = part.path("type").asText();
            switch (type) {
                case "input_text", "output_text", "text" -> parts.addObject().put("type", "text")
                        .put("text", part.path("text").asText());
                case "refusal" -> parts.addObject().put("type", "text").put("text", part.path("refusal").asText());
                case "input_image" -> {
                    if (!part.path("image_url").isTextual()) {
                        throw ResponsesRequestParser.invalid("invalid_value", param + "[].image_url",
                                "An input_image needs an image_url (a URL or a data: URL) for this model; file_id is not supported.");
                    }
                    ObjectNode image = parts.addObject().put("type", "image_url").putObject("image_url")
                            .put("url", part.get("image_url").textValue());
                    if (part.path("detail").isTextual()) {
                        image.put("detail", part.get("detail").textValue());
                    }
                }
                case "input_file" -> {
                    if (!part.path("file_data").isTextual() && !part.path("file_id").isTextual()) {
                        throw ResponsesRequestParser.invalid("invalid_value", param + "[].file_data",
                                "An input_file needs file_data or file_id for this model; file_url is not supported.");
                    }
                    ObjectNode file = parts.addObject().put("type", "file").putObject("file");
                    for (String field : List.of("file_data", "file_id", "filename")) {
                        if (part.path(field).isTextual()) {
                            file.put(field, part.get(field).textValue());
                        }
                    }
                }
                default -> throw notSupported(type, param);
            }
        }
        return parts;
    }

    private static RuntimeException notSupported(String type, String param) {
        return ResponsesRequestParser.invalid("invalid_value", param, "Content of type '" + type
                + "' is not supported by this model; it reads text only.");
    }

    /** Function tools as chat tools; {@code tool_choice} {@code auto} is the chat default and left out. */
    private static void tools(ResponsesRequest request, ObjectNode chat) {
        JsonNode tools = request.field("tools");
        ArrayNode functions = NODES.arrayNode();
        if (tools != null) {
            for (JsonNode tool : tools) {
                if ("function".equals(tool.path("type").asText())) {
                    ObjectNode function = functions.addObject().put("type", "function").putObject("function");
                    function.put("name", tool.path("name").asText());
                    for (String field : List.of("description", "parameters", "strict")) {
                        if (tool.hasNonNull(field)) {
                            function.set(field, tool.get(field));
                        }
                    }
                }
            }
        }
        if (!functions.isEmpty()) {
            chat.set("tools", functions);
        }
        JsonNode choice = request.field("tool_choice");
        if (choice != null && !"auto".equals(choice.asText())) {
            chat.set("tool_choice", chatToolChoice(choice));
        }
    }

    /**
     * {@code none} and {@code required} as they are, a named function ({@code {"type":"function","name":…}}) as the
     * chat wire names it ({@code {"type":"function","function":{"name":…}}}); the built-in tools have no chat form.
     */
    private static JsonNode chatToolChoice(JsonNode choice) {
        if (choice.isTextual()) {
            return choice;
        }
        if ("function".equals(choice.path("type").asText())) {
            ObjectNode named = NODES.objectNode().put("type", "function");
            named.putObject("function").put("name", choice.path("name").asText());
            return named;
        }
        throw ResponsesRequestParser.invalid("invalid_value", "tool_choice", "tool_choice of type '"
                + choice.path("type").asText() + "' is not supported by this model: use 'auto', 'none', 'required' "
                + "or a function.");
    }

    private static void responseFormat(ResponsesRequest request, ObjectNode chat) {
        JsonNode format = request.body().path("text").path("format");
        String type = format.path("type").asText("text");
        if ("json_object".equals(type)) {
            chat.putObject("response_format").put("type", "json_object");
        } else if ("json_schema".equals(type)) {
            ObjectNode schema = chat.putObject("response_format").put("type", "json_schema").putObject("json_schema");
            for (String field : List.of("name", "description", "schema", "strict")) {
                if (format.hasNonNull(field)) {
                    schema.set(field, format.get(field));
                }
            }
        }
    }

    private static void copy(ResponsesRequest request, String field, ObjectNode chat, String chatField) {
        JsonNode value = request.field(field);
        if (value != null) {
            chat.set(chatField, value);
        }
    }
}
