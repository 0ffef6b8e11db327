package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.TrainingJobRequested;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.service.EmbeddedTrainerService;

/**
 * The embedded trainer's intake: {@code training.jobs.requested} in its own consumer group. The record is acked
 * once the job was trained or skipped; with {@code training.trainer.enabled=false} every record is acked untouched,
 * leaving the jobs to the GPU workers' group. An unreadable record goes to {@code training.jobs.requested.dlq}.
 */
@ApplicationScoped
public class TrainingRequestConsumer {

    private final EventReader<TrainingJobRequested> reader;
    private final EmbeddedTrainerService trainer;
    private final TrainerConfig config;

    public TrainingRequestConsumer(ObjectMapper json, EmbeddedTrainerService trainer, TrainerConfig config) {
        this.reader = new EventReader<>(json, Topics.TRAINING_JOBS_REQUESTED, TrainingJobRequested.class,
                request -> EventReader.notAUuid(request.jobId(), "job_id")
                        .or(() -> EventReader.notAUuid(request.modelId(), "model_id"))
                        .or(() -> settingsMissing(request)));
        this.trainer = trainer;
        this.config = config;
    }

    /** An RL job needs its {@code config}, an SFT job its {@code sft}; a kind this trainer does not know is refused. */
    private static Optional<String> settingsMissing(TrainingJobRequested request) {
        return switch (request.kindOrRl()) {
            case TrainingJobRequested.KIND_RL -> request.config() == null ? Optional.of("config is required") : Optional.empty();
            case TrainingJobRequested.KIND_SFT -> request.sft() == null ? Optional.of("sft is required for an sft job") : Optional.empty();
            default -> Optional.of("unknown job kind " + request.kind());
        };
    }

    @Incoming("trainer-requests")
    public Uni<Void> consume(String record) {
        if (!config.enabled()) {
            return Uni.createFrom().voidItem();
        }
        return reader.readOrDeadLetter(record).chain(request -> trainer.accept(request, UUID.fromString(request.jobId())));
    }
}
