package org.llmplatform.tracing.completions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/**
 * An error answer of the inference gateway, its message taken from the body as OpenAI clients read
 * it: {@code error.message}, else {@code error}, {@code detail}, {@code message} or {@code reason}.
 */
public class GatewayError extends RuntimeException {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final int status;

    public GatewayError(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    static GatewayError of(int status, String body) {
        return new GatewayError(status, messageOf(body).orElse("The inference gateway answered HTTP " + status));
    }

    /** The error message of a JSON error body or chunk, if it has one. */
    public static Optional<String> messageOf(JsonNode body) {
        if (body == null || !body.isObject()) {
            return Optional.empty();
        }
        for (String key : new String[] {"error", "detail", "message", "reason"}) {
            JsonNode value = body.get(key);
            if (value == null || value.isNull()) {
                continue;
            }
            if (value.isTextual()) {
                return Optional.of(value.asText());
            }
            if (value.isObject() && value.path("message").isTextual()) {
                return Optional.of(value.get("message").asText());
            }
            if (value.isArray() && !value.isEmpty()) {
                return Optional.of(validationMessage(value));
            }
            return Optional.of(value.toString());
        }
        return Optional.empty();
    }

    private static Optional<String> messageOf(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            return messageOf(JSON.readTree(body)).or(() -> Optional.of(body));
        } catch (IOException notJson) {
            return Optional.of(body);
        }
    }

    /** FastAPI's validation issues as one line: {@code body.temperature: Input should be ...}. */
    private static String validationMessage(JsonNode issues) {
        StringBuilder message = new StringBuilder();
        for (JsonNode issue : issues) {
            if (!message.isEmpty()) {
                message.append("; ");
            }
            StringBuilder loc = new StringBuilder();
            issue.path("loc").forEach(part -> loc.append(loc.isEmpty() ? "" : ".").append(part.asText()));
            message.append(loc.isEmpty() ? "" : loc + ": ").append(issue.path("msg").asText(issue.toString()));
        }
        return message.toString();
    }
}
