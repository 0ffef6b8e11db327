package org.llmplatform.tracing.trajectories;

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
import org.llmplatform.tracing.trajectories.TrajectoryEnvelopes.TrajectoriesReq;
import org.llmplatform.tracing.trajectories.TrajectoryEnvelopes.TrajectoriesRes;

/** Ours: traced chat calls as training data, for ART's training API (RL) or an SFT training file. */
@Path("/calls/trajectories")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class TrajectoriesResource {

    private final TrajectoryService trajectories;

    public TrajectoriesResource(TrajectoryService trajectories) {
        this.trajectories = trajectories;
    }

    @POST
    @BodyChecks(projectIds = "project_id", limits = @Limit(field = "call_ids[]", max = FieldLimits.ID))
    public Uni<TrajectoriesRes> fromCalls(TrajectoriesReq request) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        return trajectories.fromCalls(request);
    }
}
