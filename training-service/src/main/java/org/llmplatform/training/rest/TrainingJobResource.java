package org.llmplatform.training.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.training.service.CreateTrainingJob;
import org.llmplatform.training.service.JobService;
import org.llmplatform.training.service.PageRequest;

/** Training jobs of the training-preview API; cancel is this service's addition (W&B has none). */
@Path("/v1/preview/training-jobs")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class TrainingJobResource {

    private final JobService jobs;

    public TrainingJobResource(JobService jobs) {
        this.jobs = jobs;
    }

    @POST
    public Uni<JobResponse> create(CreateTrainingJob request) {
        return jobs.create(request).map(JobResponse::of);
    }

    @GET
    @Path("{training_job_id}")
    public Uni<JobResponse> get(@RestPath("training_job_id") String jobId) {
        return jobs.find(jobId).map(JobResponse::of);
    }

    /** Events oldest first, strictly after {@code after} (an event id); {@code order} is not a parameter here. */
    @GET
    @Path("{training_job_id}/events")
    public Uni<ListPage<JobEventResponse>> events(@RestPath("training_job_id") String jobId, @RestQuery String after,
            @RestQuery String limit) {
        // The job is looked up before the query is validated: a stranger's job is a 404 whatever the query.
        return jobs.find(jobId).chain(() -> {
            PageRequest page = PageQuery.parse(after, limit, null);
            return jobs.events(jobId, page.after(), page.limit());
        }).map(events -> ListPage.of(events.data().stream().map(JobEventResponse::of).toList(), JobEventResponse::id, events.hasMore()));
    }

    @POST
    @Path("{training_job_id}/cancel")
    public Uni<JobResponse> cancel(@RestPath("training_job_id") String jobId) {
        return jobs.cancel(jobId).map(JobResponse::of);
    }
}
