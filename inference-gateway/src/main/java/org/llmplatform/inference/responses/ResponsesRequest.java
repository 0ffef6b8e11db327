package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A checked {@code POST /v1/responses} body: the {@code body} as it came, and what the gateway itself acts on. Every
 * {@code input} item is an object with its {@code type} ({@code message}, {@code function_call},
 * {@code function_call_output}, …); a string input is one user message.
 */
public record ResponsesRequest(ObjectNode body, String model, List<ObjectNode> input, boolean stream, boolean store,
        String previousResponseId) {

    /** The field of the body, or null when absent or JSON null. */
    public JsonNode field(String name) {
        JsonNode value = body.get(name);
        return value == null || value.isNull() ? null : value;
    }
}
