package org.llmplatform.automation.delivery;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;

/**
 * What one POST to a webhook came to: the endpoint's status, headers and the first 20 KiB of its body,
 * or the error that prevented an answer ({@code timedOut} when it was too slow).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SendResult(Integer statusCode, Map<String, String> headers, String body, String error, boolean timedOut,
        long durationMs) {

    public boolean succeeded() {
        return statusCode != null && statusCode >= 200 && statusCode < 300;
    }

    public String header(String name) {
        if (headers == null) {
            return null;
        }
        return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** The same result with every occurrence of the given secret values replaced by {@code ***}. */
    public SendResult scrubbed(Iterable<String> secrets) {
        return new SendResult(statusCode, headers, scrub(body, secrets), scrub(error, secrets), timedOut, durationMs);
    }

    static String scrub(String text, Iterable<String> secrets) {
        if (text == null) {
            return null;
        }
        String scrubbed = text;
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) {
                scrubbed = scrubbed.replace(secret, "***");
            }
        }
        return scrubbed;
    }
}
