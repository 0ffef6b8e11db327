package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * The typed scorer and agent-span fields of Weave's {@code FeedbackCreateReq}. The Python SDK sends them with their
 * defaults on every feedback of a batch, so they are read; they feed the {@code /agents} views, which this server
 * does not have, so a value other than the default is refused rather than dropped.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ScorerFields(
        List<String> scorerTags,
        Map<String, String> scorerTagReasons,
        Map<String, Double> scorerTagConfidences,
        Map<String, Double> scorerRatings,
        Map<String, String> scorerRatingReasons,
        Map<String, Double> scorerRatingConfidences,
        String spanAgentName,
        String spanAgentVersion,
        String spanStatusCode,
        String spanConversationId,
        String spanTraceId,
        String scorerTraceId) {

    private static final String UNSET_STATUS = "UNSET";

    /** Any of the scorer columns holds something (the reference's test: any is truthy). */
    boolean scorerSet() {
        return present(scorerTags) || present(scorerTagReasons) || present(scorerTagConfidences) || present(scorerRatings)
                || present(scorerRatingReasons) || present(scorerRatingConfidences);
    }

    /** Any span field differs from its default ({@code ""}, and {@code UNSET} for the status). */
    boolean spanSet() {
        return present(spanAgentName) || present(spanAgentVersion) || present(spanConversationId)
                || present(spanTraceId) || present(scorerTraceId)
                || spanStatusCode != null && !spanStatusCode.isEmpty() && !spanStatusCode.equals(UNSET_STATUS);
    }

    private static boolean present(List<?> values) {
        return values != null && !values.isEmpty();
    }

    private static boolean present(Map<?, ?> values) {
        return values != null && !values.isEmpty();
    }

    private static boolean present(String value) {
        return value != null && !value.isEmpty();
    }
}
