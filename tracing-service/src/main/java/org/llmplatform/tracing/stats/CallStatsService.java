package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.stats.CallStatsResource.CallStatsReq;
import org.llmplatform.tracing.stats.CallStatsResource.CallStatsRes;

/** {@code calls/stats}: the caller's project, the request checked and resolved to buckets, then both aggregations in SQL. */
@ApplicationScoped
public class CallStatsService {

    private final CallStatsStore store;
    private final CurrentPrincipal caller;

    public CallStatsService(CallStatsStore store, CurrentPrincipal caller) {
        this.store = store;
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
        ZoneId zone = zone(timezone);
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
        Uni<List<ObjectNode>> usage = usageMetrics.isEmpty() ? Uni.createFrom().item(List.of())
                : store.usageBuckets(project, filter, buckets, usageMetrics);
        return usage.chain(usageBuckets -> (callMetrics.isEmpty() ? Uni.createFrom().item(List.<ObjectNode>of())
                : store.callBuckets(project, filter, buckets, callMetrics))
                .map(callBuckets -> new CallStatsRes(Timestamps.format(start), Timestamps.format(end), granularity,
                        timezone, usageBuckets, callBuckets)));
    }

    private static ZoneId zone(String timezone) {
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw ApiException.invalidField("value_error", List.of("body", "timezone"),
                    "Value error, unknown IANA timezone: " + timezone, timezone);
        }
    }
}
