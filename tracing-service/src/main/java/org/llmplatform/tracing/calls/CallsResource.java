package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallEnvelopes.CallsDeleteReq;
import org.llmplatform.tracing.calls.CallEnvelopes.CallsDeleteRes;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsOpNamesReq;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsOpNamesRes;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsQueryReq;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsQueryRes;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsQueryStatsReq;
import org.llmplatform.tracing.calls.CallQueryEnvelopes.CallsQueryStatsRes;
import org.llmplatform.tracing.http.JsonLinesBody;

/** The {@code /calls/*} endpoints: delete, stream_query (JSON Lines), the hidden query, query_stats and op_names (ours). */
@Path("/calls")
@Consumes(MediaType.APPLICATION_JSON)
public class CallsResource {

    private final CallService calls;
    private final CallQueryService queries;
    private final CallExpansion expansion;
    private final ObjectMapper json;

    public CallsResource(CallService calls, CallQueryService queries, CallExpansion expansion, ObjectMapper json) {
        this.calls = calls;
        this.queries = queries;
        this.expansion = expansion;
        this.json = json;
    }

    /** One compact JSON object per line; the Content-Type is the request's Accept, as the reference answers. */
    @POST
    @Path("stream_query")
    @BodyChecks(projectIds = "project_id")
    public RestMulti<Buffer> streamQuery(CallsQueryReq request, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        requireBody(request);
        return RestMulti.fromMultiData(JsonLinesBody.of(expanded(request), json))
                .status(200)
                .header(HttpHeaders.CONTENT_TYPE, JsonLinesBody.contentType(accept))
                .encodeAsJsonArray(false)
                .build();
    }

    @POST
    @Path("query")
    @BodyChecks(projectIds = "project_id")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<CallsQueryRes> query(CallsQueryReq request) {
        requireBody(request);
        return expanded(request).collect().asList().map(CallsQueryRes::new);
    }

    @POST
    @Path("delete")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "call_ids[]", max = FieldLimits.ID))
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<CallsDeleteRes> delete(CallsDeleteReq request) {
        requireBody(request);
        return calls.delete(request.projectId(), request.callIds()).map(CallsDeleteRes::new);
    }

    @POST
    @Path("query_stats")
    @BodyChecks(projectIds = "project_id")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<CallsQueryStatsRes> queryStats(CallsQueryStatsReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return queries.stats(request.toQuery()).map(stats -> new CallsQueryStatsRes(stats.count(),
                request.includeTotalStorageSize() ? stats.totalStorageSizeBytes() : null));
    }

    @POST
    @Path("op_names")
    @BodyChecks(projectIds = "project_id")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<CallsOpNamesRes> opNames(CallsOpNamesReq request) {
        requireBody(request);
        return queries.opNames(request.projectId()).map(CallsOpNamesRes::new);
    }

    private Multi<CallSchema> expanded(CallsQueryReq request) {
        return expansion.expand(queries.stream(request.toQuery()), request.expandColumns(), request.returnExpandedColumnValues());
    }

    private static void requireBody(Object request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
    }
}
