package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.llmplatform.support.error.ApiException;

/**
 * The typed scorer and agent-span fields of Weave's {@code FeedbackCreateReq}, stored on the feedback row with the
 * reference's defaults (docs/tracing-service.md#feedback): empty tags and maps, empty strings, {@code UNSET} status.
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

    static final ScorerFields DEFAULTS = new ScorerFields(List.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(),
            "", "", "UNSET", "", "", "");

    /** The values the reference's {@code Enum8} column holds. */
    static final Set<String> STATUS_CODES = Set.of("UNSET", "OK", "ERROR");

    /** Any of the scorer columns holds something (the reference's test: any is truthy). */
    boolean scorerSet() {
        return !scorerTags.isEmpty() || !scorerTagReasons.isEmpty() || !scorerTagConfidences.isEmpty()
                || !scorerRatings.isEmpty() || !scorerRatingReasons.isEmpty() || !scorerRatingConfidences.isEmpty();
    }

    /**
     * Absent fields as their defaults; a null inside a list or map is a 422 at its place, as pydantic's typed
     * containers refuse it, and a status outside the reference's enum a 400 (ClickHouse would refuse the row).
     */
    static ScorerFields checked(ScorerFields given, List<Object> at) {
        if (given == null) {
            return DEFAULTS;
        }
        String status = orEmpty(given.spanStatusCode(), DEFAULTS.spanStatusCode());
        if (!STATUS_CODES.contains(status)) {
            throw ApiException.badRequest("Invalid span_status_code: " + status + " (one of UNSET, OK, ERROR)");
        }
        return new ScorerFields(tags(given.scorerTags(), at),
                entries(given.scorerTagReasons(), at, "scorer_tag_reasons", true),
                entries(given.scorerTagConfidences(), at, "scorer_tag_confidences", false),
                entries(given.scorerRatings(), at, "scorer_ratings", false),
                entries(given.scorerRatingReasons(), at, "scorer_rating_reasons", true),
                entries(given.scorerRatingConfidences(), at, "scorer_rating_confidences", false),
                orEmpty(given.spanAgentName(), ""), orEmpty(given.spanAgentVersion(), ""), status,
                orEmpty(given.spanConversationId(), ""), orEmpty(given.spanTraceId(), ""),
                orEmpty(given.scorerTraceId(), ""));
    }

    private static List<String> tags(List<String> tags, List<Object> at) {
        if (tags == null) {
            return List.of();
        }
        for (int i = 0; i < tags.size(); i++) {
            if (tags.get(i) == null) {
                throw invalid(at, "scorer_tags", i, true);
            }
        }
        return List.copyOf(tags);
    }

    private static <V> Map<String, V> entries(Map<String, V> values, List<Object> at, String field, boolean text) {
        if (values == null) {
            return Map.of();
        }
        for (Map.Entry<String, V> entry : values.entrySet()) {
            if (entry.getValue() == null) {
                throw invalid(at, field, entry.getKey(), text);
            }
        }
        return new LinkedHashMap<>(values);
    }

    private static ApiException invalid(List<Object> at, String field, Object key, boolean text) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(field);
        loc.add(key);
        return text ? ApiException.invalidField("string_type", loc, "Input should be a valid string", null)
                : ApiException.invalidField("float_type", loc, "Input should be a valid number", null);
    }

    private static String orEmpty(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
