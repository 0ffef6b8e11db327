package org.llmplatform.inference.limits;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a project, or one API key within it, may spend: requests and tokens (prompt + completion) per UTC minute,
 * tokens per UTC day and per calendar month (UTC). A null is no limit of that kind.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Limits(Long requestsPerMinute, Long tokensPerMinute, Long tokensPerDay, Long tokensPerMonth) {

    public static final Limits NONE = new Limits(null, null, null, null);

    public boolean isEmpty() {
        return requestsPerMinute == null && tokensPerMinute == null && tokensPerDay == null && tokensPerMonth == null;
    }

    /** These limits, each one this does not set taken from {@code defaults}. */
    public Limits orElse(Limits defaults) {
        return new Limits(requestsPerMinute != null ? requestsPerMinute : defaults.requestsPerMinute,
                tokensPerMinute != null ? tokensPerMinute : defaults.tokensPerMinute,
                tokensPerDay != null ? tokensPerDay : defaults.tokensPerDay,
                tokensPerMonth != null ? tokensPerMonth : defaults.tokensPerMonth);
    }

    /** The token limit of {@code window}, or null. */
    Long tokens(LimitWindow window) {
        return switch (window) {
            case MINUTE -> tokensPerMinute;
            case DAY -> tokensPerDay;
            case MONTH -> tokensPerMonth;
        };
    }

    /** Whether a request is counted in {@code window}: a limit of it applies. */
    boolean counts(LimitWindow window) {
        return tokens(window) != null || window == LimitWindow.MINUTE && requestsPerMinute != null;
    }
}
