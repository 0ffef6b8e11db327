package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.feedback.FeedbackService.FeedbackCreated;
import org.llmplatform.tracing.query.RowsQuery;
import org.llmplatform.tracing.query.SortBy;

/**
 * The strict request envelopes of the feedback endpoints; {@code svc_user_id} is accepted and ignored, the scorer and
 * span fields are read into {@link ScorerFields}.
 */
final class FeedbackEnvelopes {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackCreateReq(String id, String projectId, String weaveRef, String creator, String feedbackType,
            ObjectNode payload, String annotationRef, String runnableRef, String callRef, String triggerRef,
            String queueId,
            List<String> scorerTags, Map<String, String> scorerTagReasons, Map<String, Double> scorerTagConfidences,
            Map<String, Double> scorerRatings, Map<String, String> scorerRatingReasons,
            Map<String, Double> scorerRatingConfidences, String spanAgentName, String spanAgentVersion,
            String spanStatusCode, String spanConversationId, String spanTraceId, String scorerTraceId,
            @JsonAlias("wb_user_id") String svcUserId) {

        NewFeedback toNew() {
            return new NewFeedback(id, projectId, weaveRef, creator, feedbackType, payload, annotationRef, runnableRef,
                    callRef, triggerRef, queueId, new ScorerFields(scorerTags, scorerTagReasons,
                    scorerTagConfidences, scorerRatings, scorerRatingReasons, scorerRatingConfidences, spanAgentName,
                    spanAgentVersion, spanStatusCode, spanConversationId, spanTraceId, scorerTraceId));
        }
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackReplaceReq(String feedbackId, String id, String projectId, String weaveRef, String creator,
            String feedbackType, ObjectNode payload, String annotationRef, String runnableRef, String callRef,
            String triggerRef, String queueId,
            List<String> scorerTags, Map<String, String> scorerTagReasons, Map<String, Double> scorerTagConfidences,
            Map<String, Double> scorerRatings, Map<String, String> scorerRatingReasons,
            Map<String, Double> scorerRatingConfidences, String spanAgentName, String spanAgentVersion,
            String spanStatusCode, String spanConversationId, String spanTraceId, String scorerTraceId,
            @JsonAlias("wb_user_id") String svcUserId) {

        NewFeedback toNew() {
            return new NewFeedback(id, projectId, weaveRef, creator, feedbackType, payload, annotationRef, runnableRef,
                    callRef, triggerRef, queueId, new ScorerFields(scorerTags, scorerTagReasons,
                    scorerTagConfidences, scorerRatings, scorerRatingReasons, scorerRatingConfidences, spanAgentName,
                    spanAgentVersion, spanStatusCode, spanConversationId, spanTraceId, scorerTraceId));
        }
    }

    @StrictRequest
    @RegisterForReflection
    record FeedbackBatchCreateReq(List<FeedbackCreateReq> batch) {
    }

    @RegisterForReflection
    record FeedbackBatchCreateRes(List<FeedbackCreated> res) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackQueryReq(String projectId, List<String> fields, JsonNode query, List<SortBy> sortBy, Long limit,
            Long offset) {

        RowsQuery toQuery() {
            return RowsQuery.of(projectId, fields, query, sortBy, limit, offset);
        }
    }

    @RegisterForReflection
    record FeedbackQueryRes(List<JsonNode> result) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackPurgeReq(String projectId, JsonNode query) {
    }

    private FeedbackEnvelopes() {
    }
}
