package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.common.StrictRequest;

/** The envelopes of {@code /feedback/stats}, {@code /feedback/payload_schema} and {@code /feedback/aggregate}. */
final class FeedbackStatsEnvelopes {

    /** {@code FeedbackStatsReq}: {@code start} is required, {@code end} defaults to now, {@code timezone} to UTC. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackStatsReq(String projectId, String start, String end, String feedbackType, String triggerRef,
            Long granularity, String timezone, List<FeedbackMetricSpec> metrics) {
    }

    /** {@code FeedbackMetricSpec}: a dot path into the payload, its value type (default numeric) and aggregations. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackMetricSpec(String jsonPath, String valueType, List<String> aggregations, List<Double> percentiles) {
    }

    /** {@code FeedbackStatsRes}: each bucket is {@code timestamp}, the aggregates and {@code count}. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackStatsRes(String start, String end, long granularity, String timezone, List<ObjectNode> buckets,
            ObjectNode windowStats) {
    }

    /** {@code FeedbackPayloadSchemaReq}: the filters of the stats and {@code sample_limit} (1–5000, default 2000). */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackPayloadSchemaReq(String projectId, String start, String end, String feedbackType, String triggerRef,
            Long sampleLimit) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackPayloadPath(String jsonPath, String valueType) {
    }

    @RegisterForReflection
    record FeedbackPayloadSchemaRes(List<FeedbackPayloadPath> paths) {
    }

    /** {@code FeedbackAggregateReq}: a window in epoch milliseconds, optional buckets, filters and dimensions. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackAggregateReq(String projectId, Long afterMs, Long beforeMs, Long timeBucketSeconds,
            List<String> feedbackTypes, List<String> tags, Double ratingMin, Double ratingMax, List<String> monitorIds,
            List<String> scorerIds, List<String> spanAgentNames, List<String> spanTypes, List<String> groupBy) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackAggregateBucket(Long timeBucketStartMs, Map<String, String> group, long totalCount, long scoredCount,
            Map<String, Long> tagCounts, Map<String, Long> ratingCounts, Map<String, Double> ratingSums) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FeedbackAggregateRes(Long timeBucketSeconds, long afterMs, long beforeMs, List<FeedbackAggregateBucket> buckets) {
    }

    private FeedbackStatsEnvelopes() {
    }
}
