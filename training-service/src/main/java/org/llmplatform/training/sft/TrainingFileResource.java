package org.llmplatform.training.sft;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Not W&B's: uploads a training file for supervised fine-tuning. The body is the JSONL itself (any content type:
 * {@code application/jsonl}, {@code application/x-ndjson}, {@code text/plain}...); the answer's {@code url} is what
 * {@code POST /v1/preview/sft-training-jobs} takes as {@code training_data_url}.
 */
@Path("/v1/preview/files")
@Produces(MediaType.APPLICATION_JSON)
public class TrainingFileResource {

    private final TrainingFileService files;

    TrainingFileResource(TrainingFileService files) {
        this.files = files;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<TrainingFileResponse> upload(byte[] content) {
        return files.upload(content).map(TrainingFileResponse::of);
    }
}
