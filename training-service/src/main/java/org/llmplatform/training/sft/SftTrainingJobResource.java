package org.llmplatform.training.sft;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.llmplatform.training.rest.JobResponse;

/**
 * W&B's supervised fine-tuning jobs, as ART's {@code SFTTrainingJobs.create} calls them. The job is a training job:
 * its status, events and cancel are those of {@code /v1/preview/training-jobs/{id}}, where ART's client reads them.
 */
@Path("/v1/preview/sft-training-jobs")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class SftTrainingJobResource {

    private final SftJobService jobs;

    SftTrainingJobResource(SftJobService jobs) {
        this.jobs = jobs;
    }

    @POST
    public Uni<JobResponse> create(CreateSftTrainingJob request) {
        return jobs.create(request).map(JobResponse::of);
    }
}
