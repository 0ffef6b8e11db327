package org.llmplatform.tracing.queues;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.query.SortBy;

/** The request and response shapes of {@code /annotation_queues} (Weave's {@code AnnotationQueue*} models). */
final class AnnotationQueueEnvelopes {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueCreateReq(String projectId, String name, String description, List<String> scorerRefs,
            @JsonAlias("wb_user_id") String svcUserId) {
    }

    @RegisterForReflection
    record AnnotationQueueCreateRes(String id) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueuesQueryReq(String projectId, String name, List<SortBy> sortBy, Long limit, Long offset) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueUpdateBody(String projectId, String name, String description, List<String> scorerRefs) {
    }

    @RegisterForReflection
    record AnnotationQueueRes(AnnotationQueueSchema queue) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueAddCallsBody(String projectId, List<String> callIds, List<String> displayFields) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueItemsQueryBody(String projectId, AnnotationQueueItemsFilter filter, List<SortBy> sortBy,
            Long limit, Long offset, Boolean includePosition) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueItemsFilter(String id, String callId, String callOpName, String callTraceId, String addedBy,
            List<String> annotationStates) {
    }

    @RegisterForReflection
    record AnnotationQueueItemsQueryRes(List<AnnotationQueueItemSchema> items) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueuesStatsReq(String projectId, List<String> queueIds) {
    }

    @RegisterForReflection
    record AnnotationQueuesStatsRes(List<AnnotationQueueStatsSchema> stats) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AnnotationQueueItemProgressUpdateBody(String projectId, String annotationState) {
    }

    @RegisterForReflection
    record AnnotatorQueueItemsProgressUpdateRes(AnnotationQueueItemSchema item) {
    }

    private AnnotationQueueEnvelopes() {
    }
}
