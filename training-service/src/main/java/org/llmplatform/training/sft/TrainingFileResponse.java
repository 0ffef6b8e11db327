package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/** An uploaded training file; {@code url} is what an SFT job's {@code training_data_url} takes. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingFileResponse(UUID id, String object, String url, long bytes, int lineCount, String sha256, Instant createdAt) {

    static TrainingFileResponse of(TrainingFile file) {
        return new TrainingFileResponse(file.id(), "file", file.url(), file.blob().byteCount(), file.lineCount(), file.blob().sha256(),
                file.createdAt());
    }
}
