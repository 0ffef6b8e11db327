package org.llmplatform.tracing.stats;

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
import java.util.List;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.StrictRequest;

/** {@code POST /calls/usage}: each requested call with its whole trace's usage below it (docs/tracing-service.md#usage-roll-up). */
@Path("/calls/usage")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CallsUsageResource {

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CallsUsageReq(String projectId, List<String> callIds, boolean includeCosts, Long limit) {
    }

    private final UsageService usage;
    private final ObjectMapper json;

    public CallsUsageResource(UsageService usage, ObjectMapper json) {
        this.usage = usage;
        this.json = json;
    }

    @POST
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "call_ids[]", max = FieldLimits.ID))
    public Uni<ObjectNode> callsUsage(CallsUsageReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        if (request.callIds() == null) {
            throw ApiException.missingField("call_ids");
        }
        CallFilter.checkLength("call_ids", request.callIds());
        return usage.callsUsage(request.projectId(), request.callIds(), request.includeCosts(),
                request.limit() == null ? TraceUsageResource.DEFAULT_LIMIT : request.limit())
                .map(rolledUp -> rolledUp.toJson(json));
    }
}
