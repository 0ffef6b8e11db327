package org.llmplatform.tracing.calls;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.BodyChecks.LimitsAt;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallEnvelopes.CallBatchItem;
import org.llmplatform.tracing.calls.CallEnvelopes.CallCreateBatchReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallCreateBatchRes;
import org.llmplatform.tracing.calls.CallEnvelopes.CallEndReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallReadReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallReadRes;
import org.llmplatform.tracing.calls.CallEnvelopes.CallStartReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallUpdateReq;
import org.llmplatform.tracing.calls.CallService.BatchPart;
import org.llmplatform.tracing.calls.CallService.CallStarted;

/** The {@code /call/*} endpoints: writing parts, renaming and reading one call. */
@Path("/call")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CallResource {

    private final CallService calls;
    private final CallQueryService queries;

    public CallResource(CallService calls, CallQueryService queries) {
        this.calls = calls;
        this.queries = queries;
    }

    @POST
    @Path("start")
    @BodyChecks(projectIds = "start.project_id", limitSets = @LimitsAt(set = StartedCallLimits.class, under = "start"))
    public Uni<CallStarted> start(CallStartReq request) {
        return calls.start(request == null ? null : request.start());
    }

    @POST
    @Path("end")
    @BodyChecks(projectIds = "end.project_id", limits = @Limit(field = "end.id", max = FieldLimits.ID))
    public Uni<Map<String, Object>> end(CallEndReq request) {
        return calls.end(request == null ? null : request.end()).replaceWith(Map.of());
    }

    @POST
    @Path("upsert_batch")
    @BodyChecks(projectIds = {"batch[].req.start.project_id", "batch[].req.end.project_id"},
            limitSets = @LimitsAt(set = StartedCallLimits.class, under = "batch[].req.start"),
            limits = @Limit(field = "batch[].req.end.id", max = FieldLimits.ID))
    public Uni<CallCreateBatchRes> upsertBatch(CallCreateBatchReq request) {
        if (request == null || request.batch() == null) {
            throw ApiException.missingField("batch");
        }
        List<BatchPart> parts = new ArrayList<>();
        for (int i = 0; i < request.batch().size(); i++) {
            parts.add(batchPart(request.batch().get(i), i));
        }
        return calls.upsertBatch(parts).map(CallCreateBatchRes::new);
    }

    @POST
    @Path("update")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "call_id", max = FieldLimits.ID),
            @Limit(field = "display_name", max = FieldLimits.DISPLAY_NAME)})
    public Uni<Map<String, Object>> update(CallUpdateReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return calls.update(request.projectId(), request.callId(), request.displayName()).replaceWith(Map.of());
    }

    private static BatchPart batchPart(CallBatchItem item, int index) {
        List<Object> at = List.of("body", "batch", index);
        if (item == null || item.req() == null) {
            throw ApiException.invalidField("missing", item == null ? at : append(at, "req"), "Field required", null);
        }
        String mode = item.mode() != null ? item.mode() : item.req().start() != null ? "start" : "end";
        List<Object> req = append(at, "req");
        return switch (mode) {
            case "start" -> {
                requirePart(item.req().start(), append(req, "start"));
                yield new BatchPart(item.req().start(), null);
            }
            case "end" -> {
                requirePart(item.req().end(), append(req, "end"));
                yield new BatchPart(null, item.req().end());
            }
            default -> throw ApiException.badRequest("Invalid mode");
        };
    }

    private static void requirePart(Object part, List<Object> loc) {
        if (part == null) {
            throw ApiException.invalidField("missing", loc, "Field required", null);
        }
    }

    private static List<Object> append(List<Object> at, Object key) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(key);
        return loc;
    }

    /** The reference's answer, whose {@code error_code} makes an SDK switch to the v2 API. */
    @ServerExceptionMapper
    public Response completeModeRequired(CallsCompleteModeRequired refused) {
        return Response.status(400).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("reason", refused.getMessage(), "error_code", CallsCompleteModeRequired.ERROR_CODE)).build();
    }

    /** The same as a stream_query of that one id (docs/tracing-service.md#call-endpoints). */
    @POST
    @Path("read")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "id", max = FieldLimits.ID))
    public Uni<CallReadRes> read(CallReadReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return queries.read(request.projectId(), request.id(), request.includeCosts(), request.includeStorageSize(),
                request.includeTotalStorageSize()).map(CallReadRes::new);
    }
}
