package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateRes;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackPayloadSchemaReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackPayloadSchemaRes;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackStatsReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackStatsRes;
import org.llmplatform.tracing.stats.StatsBuckets;

/** Feedback counted over time (docs/tracing-service.md#feedback-stats): stats, payload schema and aggregate. */
@ApplicationScoped
public class FeedbackStatsService {

    /** The granularity the reference answers when no metric is asked for. */
    private static final long NO_METRICS_GRANULARITY = 3600;
    private static final long DEFAULT_SAMPLE_LIMIT = 2000;
    private static final long MAX_SAMPLE_LIMIT = 5000;

    private final FeedbackStatsStore store;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public FeedbackStatsService(FeedbackStatsStore store, CurrentPrincipal caller, ObjectMapper json) {
        this.store = store;
        this.caller = caller;
        this.json = json;
    }

    public Uni<FeedbackStatsRes> stats(FeedbackStatsReq request) {
        FeedbackWindow window = window(request.projectId(), request.start(), request.end(), request.feedbackType(),
                request.triggerRef());
        String timezone = request.timezone() == null ? "UTC" : request.timezone();
        ZoneId zone = StatsBuckets.zone(timezone);
        if (request.granularity() != null && request.granularity() < 0) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", "granularity"),
                    "Input should be greater than or equal to 0", request.granularity());
        }
        String start = Timestamps.format(window.start());
        String end = Timestamps.format(window.end());
        if (request.metrics() == null || request.metrics().isEmpty()) {
            return Uni.createFrom().item(new FeedbackStatsRes(start, end, NO_METRICS_GRANULARITY, timezone, List.of(), null));
        }
        List<FeedbackMetric> metrics = FeedbackMetric.of(request.metrics());
        if (metrics.isEmpty()) {
            throw ApiException.badRequest("At least one metric with aggregations is required");
        }
        Duration range = Duration.between(window.start(), window.end());
        // Python's `granularity or automatic`: 0 asks for the automatic one too.
        long granularity = StatsBuckets.capped(request.granularity() != null && request.granularity() > 0
                ? request.granularity() : StatsBuckets.automaticGranularity(range), range);
        StatsBuckets buckets = new StatsBuckets(window.start().toInstant(), window.end().toInstant(), granularity, zone);
        return store.buckets(window, buckets, metrics).chain(rows -> store.windowStats(window, metrics)
                .map(windowStats -> new FeedbackStatsRes(start, end, granularity, timezone, rows, windowStats)));
    }

    public Uni<FeedbackPayloadSchemaRes> payloadSchema(FeedbackPayloadSchemaReq request) {
        FeedbackWindow window = window(request.projectId(), request.start(), request.end(), request.feedbackType(),
                request.triggerRef());
        long limit = request.sampleLimit() == null ? DEFAULT_SAMPLE_LIMIT : request.sampleLimit();
        if (limit < 1) {
            throw ApiException.invalidField("greater_than_equal", List.of("body", "sample_limit"),
                    "Input should be greater than or equal to 1", limit);
        }
        if (limit > MAX_SAMPLE_LIMIT) {
            throw ApiException.invalidField("less_than_equal", List.of("body", "sample_limit"),
                    "Input should be less than or equal to " + MAX_SAMPLE_LIMIT, limit);
        }
        return store.payloadSamples(window, limit)
                .map(payloads -> new FeedbackPayloadSchemaRes(PayloadSchema.discover(payloads, json)));
    }

    public Uni<FeedbackAggregateRes> aggregate(FeedbackAggregateReq request) {
        String project = caller.requireProject(request.projectId()).toString();
        FeedbackAggregateQuery query = FeedbackAggregateQuery.checked(project, request);
        return store.aggregate(query.sql(), query.groupBy(), query.bucketed())
                .map(buckets -> new FeedbackAggregateRes(request.timeBucketSeconds(), request.afterMs(), request.beforeMs(),
                        buckets));
    }

    private FeedbackWindow window(String projectId, String start, String end, String feedbackType, String triggerRef) {
        String project = caller.requireProject(projectId).toString();
        if (start == null) {
            throw ApiException.invalidField("missing", List.of("body", "start"), "Field required", null);
        }
        OffsetDateTime from = Timestamps.parse(start, List.of("body", "start"));
        OffsetDateTime to = end == null ? OffsetDateTime.now(ZoneOffset.UTC) : Timestamps.parse(end, List.of("body", "end"));
        return new FeedbackWindow(project, from, to, feedbackType, triggerRef);
    }
}
