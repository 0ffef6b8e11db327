package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.llmplatform.support.ids.Uuids;

/**
 * OpenAI's Response object and its output items, as the Responses API writes them: every field present, null where
 * unset ({@code openai-python}'s {@code Response} model), the request's parameters echoed.
 */
final class ResponseShapes {

    static final String COMPLETED = "completed";
    static final String INCOMPLETE = "incomplete";
    static final String IN_PROGRESS = "in_progress";
    static final String FAILED = "failed";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ResponseShapes() {
    }

    static String newId(String prefix) {
        return prefix + Uuids.v7().toString().replace("-", "");
    }

    /** The Response for {@code request} with no output yet, in {@code status}. */
    static ObjectNode response(String id, long createdAt, ResponsesRequest request, String status) {
        ObjectNode response = NODES.objectNode().put("id", id).put("object", "response").put("created_at", createdAt)
                .put("status", status).put("background", false);
        response.putNull("error");
        response.putNull("incomplete_details");
        response.set("instructions", orNull(request.field("instructions")));
        response.set("max_output_tokens", orNull(request.field("max_output_tokens")));
        response.putNull("max_tool_calls");
        response.put("model", request.model());
        response.putArray("output");
        response.put("parallel_tool_calls", request.body().path("parallel_tool_calls").asBoolean(true));
        response.set("previous_response_id", orNull(request.field("previous_response_id")));
        response.set("prompt_cache_key", orNull(request.field("prompt_cache_key")));
        ObjectNode reasoning = response.putObject("reasoning");
        reasoning.set("effort", orNull(request.body().path("reasoning").get("effort")));
        reasoning.set("summary", orNull(request.body().path("reasoning").get("summary")));
        response.set("safety_identifier", orNull(request.field("safety_identifier")));
        response.put("service_tier", "default");
        response.put("store", request.store());
        response.put("temperature", request.body().path("temperature").asDouble(1.0));
        ObjectNode text = response.putObject("text");
        JsonNode format = request.body().path("text").get("format");
        if (format != null && format.isObject()) {
            text.set("format", format);
        } else {
            text.putObject("format").put("type", "text");
        }
        text.put("verbosity", request.body().path("text").path("verbosity").asText("medium"));
        response.set("tool_choice", request.field("tool_choice") == null ? NODES.textNode("auto") : request.field("tool_choice"));
        response.set("tools", request.field("tools") == null ? NODES.arrayNode() : request.field("tools"));
        response.put("top_logprobs", request.body().path("top_logprobs").asInt(0));
        response.put("top_p", request.body().path("top_p").asDouble(1.0));
        response.put("truncation", request.body().path("truncation").asText("disabled"));
        response.putNull("usage");
        response.set("user", orNull(request.field("user")));
        response.set("metadata", request.field("metadata") == null ? NODES.objectNode() : request.field("metadata"));
        return response;
    }

    /** Finishes {@code response} with its output, usage and the status the chat finish reason gives. */
    static ObjectNode finish(ObjectNode response, List<ObjectNode> output, String finishReason, JsonNode chatUsage) {
        ArrayNode items = response.putArray("output");
        output.forEach(items::add);
        String incomplete = "length".equals(finishReason) ? "max_output_tokens"
                : "content_filter".equals(finishReason) ? "content_filter" : null;
        response.put("status", incomplete != null ? INCOMPLETE : COMPLETED);
        if (incomplete != null) {
            response.putObject("incomplete_details").put("reason", incomplete);
        }
        response.set("usage", usage(chatUsage));
        return response;
    }

    /** A chat {@code usage} as the Responses API counts it. */
    static ObjectNode usage(JsonNode chatUsage) {
        long input = chatUsage == null ? 0 : chatUsage.path("prompt_tokens").asLong(0);
        long output = chatUsage == null ? 0 : chatUsage.path("completion_tokens").asLong(0);
        ObjectNode usage = NODES.objectNode().put("input_tokens", input);
        usage.putObject("input_tokens_details").put("cached_tokens",
                chatUsage == null ? 0 : chatUsage.path("prompt_tokens_details").path("cached_tokens").asLong(0));
        usage.put("output_tokens", output);
        usage.putObject("output_tokens_details").put("reasoning_tokens",
                chatUsage == null ? 0 : chatUsage.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
        usage.put("total_tokens", input + output);
        return usage;
    }

    static ObjectNode message(String id, String status, String text) {
        ObjectNode message = NODES.objectNode().put("id", id).put("type", "message").put("status", status)
                .put("role", "assistant");
        ArrayNode content = message.putArray("content");
        if (text != null) {
            content.add(outputText(text));
        }
        return message;
    }

    static ObjectNode outputText(String text) {
        ObjectNode part = NODES.objectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        part.putArray("logprobs");
        return part;
    }

    static ObjectNode functionCall(String id, String status, String callId, String name, String arguments) {
        return NODES.objectNode().put("id", id).put("type", "function_call").put("status", status)
                .put("arguments", arguments).put("call_id", callId).put("name", name);
    }

    /** The output items of a chat completion's first choice: its text as a message, its tool calls as calls. */
    static List<ObjectNode> output(JsonNode completion) {
        JsonNode message = completion.path("choices").path(0).path("message");
        List<ObjectNode> items = new java.util.ArrayList<>();
        String content = message.path("content").isTextual() ? message.get("content").textValue() : null;
        JsonNode calls = message.path("tool_calls");
        if (content != null && (!content.isEmpty() || calls.isEmpty())) {
            items.add(message(newId("msg_"), COMPLETED, content));
        }
        for (JsonNode call : calls) {
            items.add(functionCall(newId("fc_"), COMPLETED, call.path("id").asText(newId("call_")),
                    call.path("function").path("name").asText(), call.path("function").path("arguments").asText("")));
        }
        return items;
    }

    private static JsonNode orNull(JsonNode value) {
        return value == null ? NODES.nullNode() : value;
    }
}
