package org.llmplatform.training.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.llmplatform.training.store.Job;
import org.llmplatform.training.store.JobStatus;

/**
 * W&B's {@code TrainingJobResponse} ({@code id}) with what the real server also returns, plus the model, timestamps and
 * what the job trains ({@code kind}: {@code rl}, or {@code sft} for a supervised fine-tuning job).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JobResponse(UUID id, UUID modelId, JobStatus status, Instant createdAt, Instant trainingStart, Instant trainingEnd,
        String errorMessage, String kind) {

    public static JobResponse of(Job job) {
        return new JobResponse(job.id(), job.modelId(), job.status(), job.createdAt(), job.trainingStart(), job.trainingEnd(),
                job.errorMessage(), job.kind().wireName());
    }
}
