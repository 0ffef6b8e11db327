package org.llmplatform.tracing.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.rest.CallEnvelopes.CallEndReq;
import org.llmplatform.tracing.rest.CallEnvelopes.CallReadReq;
import org.llmplatform.tracing.rest.CallEnvelopes.CallReadRes;
import org.llmplatform.tracing.rest.CallEnvelopes.CallStartReq;
import org.llmplatform.tracing.service.CallService;
import org.llmplatform.tracing.service.CallService.CallStarted;

/** {@code /call/start}, {@code /call/end} and {@code /call/read} of the Weave trace server API. */
@Path("/call")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CallResource {

    private final CallService calls;

    public CallResource(CallService calls) {
        this.calls = calls;
    }

    @POST
    @Path("start")
    public Uni<CallStarted> start(CallStartReq request) {
        return calls.start(request == null ? null : request.start());
    }

    @POST
    @Path("end")
    public Uni<Map<String, Object>> end(CallEndReq request) {
        return calls.end(request == null ? null : request.end()).replaceWith(Map.of());
    }

    /**
     * {@code include_costs} is accepted and adds nothing yet: costs come from prices, and without
     * any price no call has {@code summary.weave.costs} (spec section 12.2).
     */
    @POST
    @Path("read")
    public Uni<CallReadRes> read(CallReadReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return calls.read(request.projectId(), request.id(), request.includeStorageSize(),
                request.includeTotalStorageSize()).map(CallReadRes::new);
    }
}
