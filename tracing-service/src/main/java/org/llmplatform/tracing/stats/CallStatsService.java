package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.stats.CallStatsResource.CallStatsReq;
import org.llmplatform.tracing.stats.CallStatsResource.CallStatsRes;

/**
 * {@code calls/stats}: the caller's project, the request checked and resolved to buckets, then both aggregations in SQL,
 * from the hourly rollup where it answers the request, else from the calls (docs/tracing-service.md#call-stats-rollup).
 */
@ApplicationScoped
public class CallStatsService {

    private final CallStatsStore store;
    private final CallStatsRollupStore rollupStore;
    private final CurrentPrincipal caller;

    public CallStatsService(CallStatsStore store, CallStatsRollupStore rollupStore, CurrentPrincipal caller) {
        this.store = store;
        this.rollupStore = rollupStore;
        this.caller = caller;
    }

    public Uni<CallStatsRes> stats(CallStatsReq request) {
        String project = caller.requireProject(request.projectId()).toString();
        if (request.start() == null) {
            throw ApiException.missingField("start");
        }
        OffsetDateTime start = Timestamps.parse(request.start(), List.of("body", "start"));
        OffsetDateTime end = request.end() == null ? OffsetDateTime.now(ZoneOffset.UTC)
                : Timestamps.parse(request.end(), List.of("body", "end"));
        String timezone = request.timezone() == null ? "UTC" : request.timezone();
        ZoneId zone = StatsBuckets.zone(timezone);
        if (end.isBefore(start)) {
            throw ApiException.badRequest("CallStatsReq end must be after start");
        }
        if (request.granularity() != null && request.granularity() <= 0) {
            throw ApiException.invalidField("greater_than", List.of("body", "granularity"), "Input should be greater than 0",
                    request.granularity());
        }
        Duration range = Duration.between(start, end);
        long granularity = StatsBuckets.capped(request.granularity() != null ? request.granularity()
                : StatsBuckets.automaticGranularity(range), range);
        List<StatsMetric> usageMetrics = StatsMetric.of(request.usageMetrics(), StatsMetric.USAGE_METRICS, "usage_metrics");
        List<StatsMetric> callMetrics = StatsMetric.of(request.callMetrics(), StatsMetric.CALL_METRICS, "call_metrics");
        CallFilter filter = request.filter() == null ? CallFilter.NONE : request.filter().checked();
        StatsBuckets buckets = new StatsBuckets(start.toInstant(), end.toInstant(), granularity, zone);
        boolean rootsOnly = Boolean.TRUE.equals(filter.traceRootsOnly());
        boolean rollup = everyCall(filter) && CallStatsRollupStore.answers(buckets, callMetrics, usageMetrics);
        Uni<List<ObjectNode>> usage = usageMetrics.isEmpty() ? Uni.createFrom().item(List.of())
                : rollup ? rollupStore.usageBuckets(project, rootsOnly, buckets, usageMetrics)
                : store.usageBuckets(project, filter, buckets, usageMetrics);
        return usage.chain(usageBuckets -> callBuckets(project, filter, rootsOnly, buckets, callMetrics, rollup)
                .map(callBuckets -> new CallStatsRes(Timestamps.format(start), Timestamps.format(end), granularity,
                        timezone, usageBuckets, callBuckets)));
    }

    /** From the rollup where it answers, else (and where a latency percentile meets a negative latency) from the calls. */
    private Uni<List<ObjectNode>> callBuckets(String project, CallFilter filter, boolean rootsOnly, StatsBuckets buckets,
            List<StatsMetric> metrics, boolean rollup) {
        if (metrics.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        if (!rollup) {
            return store.callBuckets(project, filter, buckets, metrics);
        }
        return rollupStore.callBuckets(project, rootsOnly, buckets, metrics)
                .chain(answer -> answer.isPresent()
                ? Uni.createFrom().item(answer.get()) : store.callBuckets(project, filter, buckets, metrics));
    }

    /**
     * Whether the filter keeps every call, or every trace root (the members calls/stats reads; the rollup counts every
     * visible call, roots apart).
     */
    private static boolean everyCall(CallFilter filter) {
        return Stream.of(filter.opNames(), filter.traceIds(), filter.callIds(), filter.parentIds(), filter.svcUserIds(),
                filter.svcRunIds()).allMatch(values -> values == null || values.isEmpty());
    }
}
