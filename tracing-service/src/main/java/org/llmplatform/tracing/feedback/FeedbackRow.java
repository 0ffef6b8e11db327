package org.llmplatform.tracing.feedback;

import java.time.OffsetDateTime;

/** A feedback row as stored; the payload travels as JSON text, the scorer and span fields with their defaults. */
public record FeedbackRow(
        String projectId,
        String id,
        String weaveRef,
        String svcUserId,
        String creator,
        OffsetDateTime createdAt,
        String feedbackType,
        String payloadJson,
        String annotationRef,
        String runnableRef,
        String callRef,
        String triggerRef,
        String queueId,
        ScorerFields scorer) {
}
