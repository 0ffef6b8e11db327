package org.llmplatform.inference.http;

import java.util.Map;
import org.llmplatform.support.error.ApiException;

/**
 * An error whose OpenAI {@code type} / {@code code} or response headers differ from what the status
 * alone implies (404 {@code model_not_found}, 429 with Retry-After).
 */
public class OpenAiException extends ApiException {

    private final String type;
    private final String code;
    private final String param;
    private final Map<String, String> headers;

    public OpenAiException(int status, String message, String type, String code, String param, Map<String, String> headers) {
        super(status, message);
        this.type = type;
        this.code = code;
        this.param = param;
        this.headers = Map.copyOf(headers);
    }

    public static OpenAiException modelNotFound(String model) {
        return new OpenAiException(404, "The model `" + model + "` does not exist.", "NotFoundError",
                "model_not_found", "model", Map.of());
    }

    public static OpenAiException concurrencyLimit(int retryAfterSeconds) {
        return new OpenAiException(429, "Concurrency limit reached for requests", "rate_limit_error",
                "rate_limit_exceeded", null, Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
    }

    /** A request the engine cannot serve as asked: vLLM's 400 BadRequestError. */
    public static OpenAiException badRequest(String message, String param) {
        return new OpenAiException(400, message, "BadRequestError", null, param, Map.of());
    }

    public String type() {
        return type;
    }

    public String code() {
        return code;
    }

    public String param() {
        return param;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
