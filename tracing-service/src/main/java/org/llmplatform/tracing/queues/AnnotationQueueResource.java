package org.llmplatform.tracing.queues;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.http.JsonLinesBody;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueAddCallsBody;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueCreateReq;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueCreateRes;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueItemProgressUpdateBody;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueItemsFilter;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueItemsQueryBody;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueItemsQueryRes;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueRes;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueueUpdateBody;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueuesQueryReq;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueuesStatsReq;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotationQueuesStatsRes;
import org.llmplatform.tracing.queues.AnnotationQueueEnvelopes.AnnotatorQueueItemsProgressUpdateRes;
import org.llmplatform.tracing.queues.AnnotationQueueQueries.ItemsFilter;

/** {@code /annotation_queues}: queues, their items and each annotator's progress, at Weave's paths and shapes. */
@Path("/annotation_queues")
@Consumes(MediaType.APPLICATION_JSON)
public class AnnotationQueueResource {

    private final AnnotationQueueService queues;
    private final ObjectMapper json;

    public AnnotationQueueResource(AnnotationQueueService queues, ObjectMapper json) {
        this.queues = queues;
        this.json = json;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "scorer_refs[]", max = FieldLimits.REF))
    public Uni<AnnotationQueueCreateRes> create(AnnotationQueueCreateReq request) {
        AnnotationQueueCreateReq body = required(request);
        return queues.create(body.projectId(), body.name(), body.description(), body.scorerRefs())
                .map(AnnotationQueueCreateRes::new);
    }

    /** JSON Lines of {@code AnnotationQueueSchema}, as the reference streams them. */
    @POST
    @Path("query")
    @BodyChecks(projectIds = "project_id")
    public RestMulti<Buffer> query(AnnotationQueuesQueryReq request, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        AnnotationQueuesQueryReq body = required(request);
        return RestMulti.fromMultiData(JsonLinesBody.of(queues.query(body.projectId(), body.name(), body.sortBy(),
                        body.limit(), body.offset()), json))
                .status(200)
                .header(HttpHeaders.CONTENT_TYPE, JsonLinesBody.contentType(accept))
                .encodeAsJsonArray(false)
                .build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}")
    public Uni<AnnotationQueueRes> read(@PathParam("queue_id") String queueId, @QueryParam("project_id") String projectId) {
        return queues.read(projectId, queueId).map(AnnotationQueueRes::new);
    }

    @PUT
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "scorer_refs[]", max = FieldLimits.REF))
    public Uni<AnnotationQueueRes> update(@PathParam("queue_id") String queueId, AnnotationQueueUpdateBody request) {
        AnnotationQueueUpdateBody body = required(request);
        return queues.update(queueId, body.projectId(), body.name(), body.description(), body.scorerRefs())
                .map(AnnotationQueueRes::new);
    }

    @DELETE
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}")
    public Uni<AnnotationQueueRes> delete(@PathParam("queue_id") String queueId,
            @QueryParam("project_id") String projectId) {
        return queues.delete(projectId, queueId).map(AnnotationQueueRes::new);
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}/items")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "call_ids[]", max = FieldLimits.ID))
    public Uni<AddedCalls> addCalls(@PathParam("queue_id") String queueId, AnnotationQueueAddCallsBody request) {
        AnnotationQueueAddCallsBody body = required(request);
        return queues.addCalls(queueId, body.projectId(), body.callIds(), body.displayFields());
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}/items/query")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "filter.id", max = FieldLimits.ID),
            @Limit(field = "filter.call_id", max = FieldLimits.ID),
            @Limit(field = "filter.call_op_name", max = FieldLimits.REF),
            @Limit(field = "filter.call_trace_id", max = FieldLimits.ID),
            @Limit(field = "filter.added_by", max = FieldLimits.NAME)})
    public Uni<AnnotationQueueItemsQueryRes> items(@PathParam("queue_id") String queueId,
            AnnotationQueueItemsQueryBody request) {
        AnnotationQueueItemsQueryBody body = required(request);
        AnnotationQueueItemsFilter filter = body.filter();
        ItemsFilter itemsFilter = filter == null
                ? new ItemsFilter(null, null, null, null, null, null)
                : new ItemsFilter(filter.id(), filter.callId(), filter.callOpName(), filter.callTraceId(),
                        filter.addedBy(), filter.annotationStates());
        return queues.items(queueId, body.projectId(), itemsFilter, body.sortBy(), body.limit(), body.offset(),
                Boolean.TRUE.equals(body.includePosition())).map(AnnotationQueueItemsQueryRes::new);
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Path("stats")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "queue_ids[]", max = FieldLimits.ID))
    public Uni<AnnotationQueuesStatsRes> stats(AnnotationQueuesStatsReq request) {
        AnnotationQueuesStatsReq body = required(request);
        return queues.stats(body.projectId(), body.queueIds()).map(AnnotationQueuesStatsRes::new);
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Path("{queue_id}/items/{item_id}/progress")
    @BodyChecks(projectIds = "project_id")
    public Uni<AnnotatorQueueItemsProgressUpdateRes> progress(@PathParam("queue_id") String queueId,
            @PathParam("item_id") String itemId, AnnotationQueueItemProgressUpdateBody request) {
        AnnotationQueueItemProgressUpdateBody body = required(request);
        return queues.progress(queueId, itemId, body.projectId(), body.annotationState())
                .map(AnnotatorQueueItemsProgressUpdateRes::new);
    }

    private static <T> T required(T request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        return request;
    }
}
