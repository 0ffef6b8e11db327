package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.StrictRequest;

/** {@code POST /calls/stats}: calls and their LLM usage counted in time buckets (docs/tracing-service.md#call-stats). */
@Path("/calls/stats")
@Consumes(MediaType.APPLICATION_JSON)
public class CallStatsResource {

    /** {@code CallStatsReq}: {@code start} is required, {@code end} defaults to now, {@code timezone} to UTC. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CallStatsReq(String projectId, String start, String end, Long granularity,
            List<MetricSpec> usageMetrics, List<MetricSpec> callMetrics, CallFilter filter, String timezone) {
    }

    /** {@code UsageMetricSpec} and {@code CallMetricSpec}: a metric, its aggregations (default sum) and percentiles. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MetricSpec(String metric, List<String> aggregations, List<Double> percentiles) {
    }

    /** {@code CallStatsRes}; each bucket is an object of {@code timestamp} ({@code model}), the aggregates and {@code count}. */
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CallStatsRes(String start, String end, long granularity, String timezone, List<ObjectNode> usageBuckets,
            List<ObjectNode> callBuckets) {
    }

    private final CallStatsService stats;

    public CallStatsResource(CallStatsService stats) {
        this.stats = stats;
    }

    @POST
    @BodyChecks(projectIds = "project_id")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<CallStatsRes> stats(CallStatsReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return stats.stats(request);
    }
}
