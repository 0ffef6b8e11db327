package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** A feedback to create ({@code FeedbackCreateReq} without the server-set owner). */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NewFeedback(
        String id,
        String projectId,
        String weaveRef,
        String creator,
        String feedbackType,
        ObjectNode payload,
        String annotationRef,
        String runnableRef,
        String callRef,
        String triggerRef,
        String queueId,
        ScorerFields scorer) {
}
