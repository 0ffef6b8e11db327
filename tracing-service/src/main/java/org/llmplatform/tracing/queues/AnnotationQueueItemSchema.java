package org.llmplatform.tracing.queues;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * A queued call as the API returns it: the call's start, end, op and trace as copied in when it was added, and the
 * state of its most recently updated progress ({@code unstarted} when no annotator has begun it).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AnnotationQueueItemSchema(String id, String projectId, String queueId, String callId,
        String callStartedAt, String callEndedAt, String callOpName, String callTraceId, List<String> displayFields,
        String addedBy, String annotationState, String annotatorUserId, String createdAt, String createdBy,
        String updatedAt, String deletedAt, Long positionInQueue) {
}
