package org.llmplatform.inference.usage;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** What one project spent on one model; {@code lastRequestAt} in unix seconds, as OpenAI writes times. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record UsageTotal(
        String project,
        String model,
        long requests,
        long errors,
        long promptTokens,
        long completionTokens,
        long totalTokens,
        long lastRequestAt) {
}
