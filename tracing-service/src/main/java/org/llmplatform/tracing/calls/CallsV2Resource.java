package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.BodyChecks.LimitsAt;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.tracing.calls.CallEnvelopes.CallEndReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallStartReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallsUpsertCompleteReq;
import org.llmplatform.tracing.calls.CallService.CallStarted;

/**
 * The v2 call writes of today's Weave SDKs (docs/tracing-service.md#calls-complete-mode): complete calls in one
 * record, and the eager start and end of a call still running. The path names the project; every body must name
 * the same one.
 */
@Path("/v2/{entity}/{project}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CallsV2Resource {

    private final CallService calls;
    private final CurrentPrincipal caller;

    public CallsV2Resource(CallService calls, CurrentPrincipal caller) {
        this.calls = calls;
        this.caller = caller;
    }

    @POST
    @Path("calls/complete")
    @BodyChecks(entityParameters = "entity", projectIds = "batch[].project_id",
            limitSets = @LimitsAt(set = StartedCallLimits.class, under = "batch[]"))
    public Uni<Map<String, Object>> complete(@PathParam("entity") String entity, @PathParam("project") String project,
            CallsUpsertCompleteReq request) {
        return calls.complete(pathProject(entity, project), request == null ? null : request.batch()).replaceWith(Map.of());
    }

    @POST
    @Path("call/start")
    @BodyChecks(entityParameters = "entity", projectIds = "start.project_id",
            limitSets = @LimitsAt(set = StartedCallLimits.class, under = "start"))
    public Uni<CallStarted> start(@PathParam("entity") String entity, @PathParam("project") String project,
            CallStartReq request) {
        return calls.startV2(pathProject(entity, project), request == null ? null : request.start());
    }

    @POST
    @Path("call/end")
    @BodyChecks(entityParameters = "entity", projectIds = "end.project_id", limits = {
            @Limit(field = "end.id", max = FieldLimits.ID),
            @Limit(field = "end.trace_id", max = FieldLimits.ID)})
    public Uni<Map<String, Object>> end(@PathParam("entity") String entity, @PathParam("project") String project,
            CallEndReq request) {
        return calls.endV2(pathProject(entity, project), request == null ? null : request.end()).replaceWith(Map.of());
    }

    private String pathProject(String entity, String project) {
        return caller.requireProject(entity + "/" + project).toString();
    }
}
