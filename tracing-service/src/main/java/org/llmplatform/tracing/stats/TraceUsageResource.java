package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.StrictRequest;

/** {@code POST /trace/usage}: every call the filter and query keep, with its descendants' usage (docs/tracing-service.md#usage-roll-up). */
@Path("/trace/usage")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class TraceUsageResource {

    /** The reference's safety limit on the calls one request reads. */
    static final long DEFAULT_LIMIT = 10_000;

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record TraceUsageReq(String projectId, CallFilter filter, JsonNode query, boolean includeCosts, Long limit) {
    }

    private final UsageService usage;
    private final ObjectMapper json;

    public TraceUsageResource(UsageService usage, ObjectMapper json) {
        this.usage = usage;
        this.json = json;
    }

    @POST
    @BodyChecks(projectIds = "project_id")
    public Uni<ObjectNode> traceUsage(TraceUsageReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        CallFilter filter = request.filter() == null ? CallFilter.NONE : request.filter().checked();
        return usage.traceUsage(request.projectId(), filter, request.query(), request.includeCosts(),
                request.limit() == null ? DEFAULT_LIMIT : request.limit()).map(rolledUp -> rolledUp.toJson(json));
    }
}
