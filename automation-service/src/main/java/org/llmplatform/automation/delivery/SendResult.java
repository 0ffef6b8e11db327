package org.llmplatform.automation.delivery;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.LinkedHashMap;
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

    /**
     * The same result with every form of the given secret values (see {@link SecretScrubber}) replaced by
     * {@code ***} in the body, the error and the headers' names and values: an endpoint may echo what it received
     * anywhere in its answer, an {@code Authorization} header included.
     */
    public SendResult scrubbed(Iterable<String> secrets) {
        SecretScrubber scrubber = SecretScrubber.of(secrets);
        Map<String, String> scrubbedHeaders = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((name, value) -> scrubbedHeaders.merge(scrubber.scrub(name), scrubber.scrub(value),
                    (first, second) -> first + ", " + second));
        }
        return new SendResult(statusCode, scrubbedHeaders, scrubber.scrub(body), scrubber.scrub(error), timedOut, durationMs);
    }
}
