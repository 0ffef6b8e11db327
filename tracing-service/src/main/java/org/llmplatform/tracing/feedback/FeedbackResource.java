package org.llmplatform.tracing.feedback;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.BodyChecks.LimitsAt;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackBatchCreateReq;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackBatchCreateRes;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackCreateReq;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackPurgeReq;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackQueryReq;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackQueryRes;
import org.llmplatform.tracing.feedback.FeedbackEnvelopes.FeedbackReplaceReq;
import org.llmplatform.tracing.feedback.FeedbackService.FeedbackCreated;

/** {@code /feedback/create}, {@code batch/create}, {@code query}, {@code purge} and {@code replace}. */
@Path("/feedback")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class FeedbackResource {

    private final FeedbackService feedback;

    public FeedbackResource(FeedbackService feedback) {
        this.feedback = feedback;
    }

    @POST
    @Path("create")
    @BodyChecks(projectIds = "project_id", limitSets = @LimitsAt(set = FeedbackLimits.class))
    public Uni<FeedbackCreated> create(FeedbackCreateReq request) {
        return feedback.create(required(request).toNew());
    }

    @POST
    @Path("batch/create")
    @BodyChecks(projectIds = "batch[].project_id", limitSets = @LimitsAt(set = FeedbackLimits.class, under = "batch[]"))
    public Uni<FeedbackBatchCreateRes> createBatch(FeedbackBatchCreateReq request) {
        if (request == null || request.batch() == null) {
            throw ApiException.missingField("batch");
        }
        return feedback.createBatch(request.batch().stream().map(item -> item == null ? null : item.toNew()).toList())
                .map(FeedbackBatchCreateRes::new);
    }

    @POST
    @Path("query")
    @BodyChecks(projectIds = "project_id")
    public Uni<FeedbackQueryRes> query(FeedbackQueryReq request) {
        return feedback.query(required(request).toQuery()).map(FeedbackQueryRes::new);
    }

    @POST
    @Path("purge")
    @BodyChecks(projectIds = "project_id")
    public Uni<Map<String, Object>> purge(FeedbackPurgeReq request) {
        return feedback.purge(required(request).projectId(), request.query()).replaceWith(Map.of());
    }

    @POST
    @Path("replace")
    @BodyChecks(projectIds = "project_id", limitSets = @LimitsAt(set = FeedbackLimits.class),
            limits = @Limit(field = "feedback_id", max = FieldLimits.ID))
    public Uni<FeedbackCreated> replace(FeedbackReplaceReq request) {
        return feedback.replace(required(request).feedbackId(), request.toNew());
    }

    private static <T> T required(T request) {
        if (request == null) {
            throw ApiException.invalidField("missing", List.of("body"), "Field required", null);
        }
        return request;
    }
}
