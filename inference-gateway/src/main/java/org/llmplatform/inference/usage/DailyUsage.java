package org.llmplatform.inference.usage;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.LocalDate;

/** What one project spent on one model on one UTC day. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record DailyUsage(
        LocalDate day,
        String model,
        long requests,
        long errors,
        long promptTokens,
        long completionTokens,
        long totalTokens) {
}
