package org.llmplatform.tracing.feedback;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackAggregateRes;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackPayloadSchemaReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackPayloadSchemaRes;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackStatsReq;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackStatsRes;

/** {@code /feedback/stats}, {@code /feedback/payload_schema} and {@code /feedback/aggregate}. */
@Path("/feedback")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class FeedbackStatsResource {

    private final FeedbackStatsService stats;

    public FeedbackStatsResource(FeedbackStatsService stats) {
        this.stats = stats;
    }

    @POST
    @Path("stats")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "trigger_ref", max = FieldLimits.REF))
    public Uni<FeedbackStatsRes> stats(FeedbackStatsReq request) {
        return stats.stats(required(request));
    }

    @POST
    @Path("payload_schema")
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "trigger_ref", max = FieldLimits.REF))
    public Uni<FeedbackPayloadSchemaRes> payloadSchema(FeedbackPayloadSchemaReq request) {
        return stats.payloadSchema(required(request));
    }

    @POST
    @Path("aggregate")
    @BodyChecks(projectIds = "project_id", limits = {
            @Limit(field = "monitor_ids[]", max = FieldLimits.NAME),
            @Limit(field = "scorer_ids[]", max = FieldLimits.NAME)})
    public Uni<FeedbackAggregateRes> aggregate(FeedbackAggregateReq request) {
        return stats.aggregate(required(request));
    }

    private static <T> T required(T request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return request;
    }
}
