package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.inference.http.OpenAiException;

/**
 * Checks a {@code POST /v1/responses} body the way OpenAI's Responses API does: the first problem is a 400
 * {@code invalid_request_error} naming the field in {@code param}, with OpenAI's wording ("Invalid type for
 * 'temperature': expected a decimal, but got a string instead."). Fields the gateway does not act on (
 * {@code include}, {@code prompt_cache_key}, {@code service_tier}, …) are accepted as they come; {@code truncation} is
 * {@code auto} or {@code disabled}, both answered alike (a conversation too long for the model is refused either way).
 */
public final class ResponsesRequestParser {

    private static final Set<String> ROLES = Set.of("user", "assistant", "system", "developer");
    private static final Set<String> TOOL_CHOICES = Set.of("none", "auto", "required");
    private static final Set<String> TRUNCATIONS = Set.of("auto", "disabled");
    private static final Set<String> FORMATS = Set.of("text", "json_object", "json_schema");
    private static final int MAX_METADATA_KEYS = 16;

    private ResponsesRequestParser() {
    }

    public static ResponsesRequest parse(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw invalid("invalid_type", null, "Invalid body: expected a JSON object.");
        }
        ObjectNode body = (ObjectNode) json;
        String model = string(body, "model");
        if (model == null) {
            throw invalid("missing_required_parameter", "model", "Missing required parameter: 'model'.");
        }
        List<ObjectNode> input = input(body);
        string(body, "instructions");
        String previous = string(body, "previous_response_id");
        boolean stream = bool(body, "stream", false);
        boolean store = bool(body, "store", true);
        bool(body, "parallel_tool_calls", true);
        Integer maxOutput = integer(body, "max_output_tokens");
        if (maxOutput != null && maxOutput < 1) {
            throw invalid("integer_below_min_value", "max_output_tokens", "Invalid 'max_output_tokens': integer below "
                    + "minimum value. Expected a value >= 1, but got " + maxOutput + " instead.");
        }
        bounded(body, "temperature", 2);
        bounded(body, "top_p", 1);
        string(body, "user");
        tools(body);
        toolChoice(body);
        truncation(body);
        text(body);
        metadata(body);
        object(body, "reasoning");
        return new ResponsesRequest(body, model, input, stream, store, previous);
    }

    private static List<ObjectNode> input(ObjectNode body) {
        JsonNode input = present(body, "input");
        if (input == null) {
            throw invalid("missing_required_parameter", "input", "Missing required parameter: 'input'.");
        }
        if (input.isTextual()) {
            ObjectNode message = JsonNodeFactory.instance.objectNode().put("type", "message").put("role", "user");
            message.putArray("content").addObject().put("type", "input_text").put("text", input.textValue());
            return List.of(message);
        }
        if (!input.isArray()) {
            throw invalidType("input", "a string or an array", input);
        }
        List<ObjectNode> items = new ArrayList<>(input.size());
        for (int i = 0; i < input.size(); i++) {
            items.add(item(input.get(i), "input[" + i + "]"));
        }
        return items;
    }

    private static ObjectNode item(JsonNode value, String at) {
        if (!value.isObject()) {
            throw invalidType(at, "an object", value);
        }
        ObjectNode item = ((ObjectNode) value).deepCopy();
        String type = string(item, "type", at + ".type");
        if (type == null) {
            if (present(item, "role") == null) {
                throw invalid("missing_required_parameter", at + ".type", "Missing required parameter: '" + at + ".type'.");
            }
            type = "message";
            item.put("type", type);
        }
        switch (type) {
            case "message" -> message(item, at);
            case "function_call" -> {
                required(item, "call_id", at);
                required(item, "name", at);
                required(item, "arguments", at);
            }
            case "function_call_output" -> {
                required(item, "call_id", at);
                JsonNode output = present(item, "output");
                if (output == null) {
                    throw invalid("missing_required_parameter", at + ".output",
                            "Missing required parameter: '" + at + ".output'.");
                }
                if (!output.isTextual() && !output.isArray()) {
                    throw invalidType(at + ".output", "a string or an array", output);
                }
            }
            default -> {
                // reasoning, item_reference and the built-in tools' items: kept as they came
            }
        }
        return item;
    }

    private static void message(ObjectNode item, String at) {
        String role = string(item, "role", at + ".role");
        if (role == null) {
            throw invalid("missing_required_parameter", at + ".role", "Missing required parameter: '" + at + ".role'.");
        }
        if (!ROLES.contains(role)) {
            throw invalid("invalid_value", at + ".role", "Invalid value: '" + role + "'. Supported values are: "
                    + "'assistant', 'system', 'developer', and 'user'.");
        }
        JsonNode content = present(item, "content");
        if (content == null) {
            throw invalid("missing_required_parameter", at + ".content",
                    "Missing required parameter: '" + at + ".content'.");
        }
        if (content.isArray()) {
            for (int j = 0; j < content.size(); j++) {
                String partAt = at + ".content[" + j + "]";
                JsonNode part = content.get(j);
                if (!part.isObject()) {
                    throw invalidType(partAt, "an object", part);
                }
                if (string((ObjectNode) part, "type", partAt + ".type") == null) {
                    throw invalid("missing_required_parameter", partAt + ".type",
                            "Missing required parameter: '" + partAt + ".type'.");
                }
            }
        } else if (!content.isTextual()) {
            throw invalidType(at + ".content", "a string or an array", content);
        }
    }

    private static void required(ObjectNode item, String field, String at) {
        if (string(item, field, at + "." + field) == null) {
            throw invalid("missing_required_parameter", at + "." + field,
                    "Missing required parameter: '" + at + "." + field + "'.");
        }
    }

    private static void tools(ObjectNode body) {
        JsonNode tools = present(body, "tools");
        if (tools == null) {
            return;
        }
        if (!tools.isArray()) {
            throw invalidType("tools", "an array", tools);
        }
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            String at = "tools[" + i + "]";
            if (!tool.isObject()) {
                throw invalidType(at, "an object", tool);
            }
            String type = string((ObjectNode) tool, "type", at + ".type");
            if (type == null) {
                throw invalid("missing_required_parameter", at + ".type", "Missing required parameter: '" + at + ".type'.");
            }
            if ("function".equals(type)) {
                required((ObjectNode) tool, "name", at);
                object((ObjectNode) tool, "parameters", at + ".parameters");
            }
        }
    }

    private static void toolChoice(ObjectNode body) {
        JsonNode choice = present(body, "tool_choice");
        if (choice == null) {
            return;
        }
        if (choice.isObject()) {
            ObjectNode named = (ObjectNode) choice;
            if ("function".equals(string(named, "type", "tool_choice.type")) && string(named, "name", "tool_choice.name") == null) {
                throw invalid("missing_required_parameter", "tool_choice.name",
                        "Missing required parameter: 'tool_choice.name'.");
            }
            return;
        }
        if (!choice.isTextual() || !TOOL_CHOICES.contains(choice.textValue())) {
            throw invalid("invalid_value", "tool_choice", "Invalid value: '" + choice.asText()
                    + "'. Supported values are: 'none', 'auto', and 'required'.");
        }
    }

    private static void truncation(ObjectNode body) {
        String truncation = string(body, "truncation");
        if (truncation != null && !TRUNCATIONS.contains(truncation)) {
            throw invalid("invalid_value", "truncation", "Invalid value: '" + truncation
                    + "'. Supported values are: 'auto' and 'disabled'.");
        }
    }

    private static void text(ObjectNode body) {
        ObjectNode text = object(body, "text", "text");
        ObjectNode format = text == null ? null : object(text, "format", "text.format");
        if (format == null) {
            return;
        }
        String type = string(format, "type", "text.format.type");
        if (type == null || !FORMATS.contains(type)) {
            throw invalid("invalid_value", "text.format.type", "Invalid value: '" + type
                    + "'. Supported values are: 'text', 'json_object', and 'json_schema'.");
        }
        if ("json_schema".equals(type)) {
            required(format, "name", "text.format");
            if (object(format, "schema", "text.format.schema") == null) {
                throw invalid("missing_required_parameter", "text.format.schema",
                        "Missing required parameter: 'text.format.schema'.");
            }
        }
    }

    private static void metadata(ObjectNode body) {
        ObjectNode metadata = object(body, "metadata", "metadata");
        if (metadata == null) {
            return;
        }
        if (metadata.size() > MAX_METADATA_KEYS) {
            throw invalid("object_above_max_properties", "metadata", "Invalid 'metadata': too many properties. "
                    + "Expected an object with at most " + MAX_METADATA_KEYS + " properties, but got "
                    + metadata.size() + " instead.");
        }
        for (Map.Entry<String, JsonNode> entry : metadata.properties()) {
            string(metadata, entry.getKey(), "metadata." + entry.getKey());
        }
    }

    private static void bounded(ObjectNode body, String field, double max) {
        JsonNode value = present(body, field);
        if (value == null) {
            return;
        }
        if (!value.isNumber()) {
            throw invalidType(field, "a decimal", value);
        }
        if (value.doubleValue() < 0) {
            throw invalid("decimal_below_min_value", field, "Invalid '" + field + "': decimal below minimum value. "
                    + "Expected a value >= 0, but got " + value.asText() + " instead.");
        }
        if (value.doubleValue() > max) {
            throw invalid("decimal_above_max_value", field, "Invalid '" + field + "': decimal above maximum value. "
                    + "Expected a value <= " + (long) max + ", but got " + value.asText() + " instead.");
        }
    }

    private static Integer integer(ObjectNode body, String field) {
        JsonNode value = present(body, field);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw invalidType(field, "an integer", value);
        }
        return value.intValue();
    }

    private static boolean bool(ObjectNode body, String field, boolean fallback) {
        JsonNode value = present(body, field);
        if (value == null) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw invalidType(field, "a boolean", value);
        }
        return value.booleanValue();
    }

    private static String string(ObjectNode body, String field) {
        return string(body, field, field);
    }

    private static String string(ObjectNode object, String field, String param) {
        JsonNode value = present(object, field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw invalidType(param, "a string", value);
        }
        return value.textValue();
    }

    private static ObjectNode object(ObjectNode body, String field) {
        return object(body, field, field);
    }

    private static ObjectNode object(ObjectNode object, String field, String param) {
        JsonNode value = present(object, field);
        if (value == null) {
            return null;
        }
        if (!value.isObject()) {
            throw invalidType(param, "an object", value);
        }
        return (ObjectNode) value;
    }

    private static JsonNode present(ObjectNode object, String field) {
        JsonNode value = object.get(field);
        return value == null || value.isNull() ? null : value;
    }

    private static OpenAiException invalidType(String param, String expected, JsonNode got) {
        return invalid("invalid_type", param, "Invalid type for '" + param + "': expected " + expected
                + ", but got " + kind(got) + " instead.");
    }

    private static String kind(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> value.isIntegralNumber() ? "an integer" : "a decimal";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> "null";
        };
    }

    static OpenAiException invalid(String code, String param, String message) {
        return new OpenAiException(400, message, "invalid_request_error", code, param, Map.of());
    }
}
