package org.llmplatform.inference.limits;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * {@code GET /v1/limits}: a project's limits and each key's, with what each used in the windows now running (counted
 * only while a limit of that subject is in force) and when those windows end (epoch seconds).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LimitsReport(String object, String project, boolean mayChange, Resets resets, ProjectLimits limits,
        List<KeyLimits> keys) {

    /** The project's: those set through the API ({@code set}, null when none) and those in force with the configuration's. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ProjectLimits(Limits set, Limits inForce, Use use) {
    }

    /** A key's within the project, with its owner and hint where the key is known. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record KeyLimits(String apiKeyId, String user, String hint, Limits set, Use use) {
    }

    /** Requests and tokens of this minute, tokens of today and of this month. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Use(long requestsThisMinute, long tokensThisMinute, long tokensToday, long tokensThisMonth) {
        static final Use NONE = new Use(0, 0, 0, 0);
    }

    @RegisterForReflection
    public record Resets(long minute, long day, long month) {
    }
}
