package org.llmplatform.training.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.TrainingJobRequested;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.service.EmbeddedTrainerService;

/**
 * The embedded trainer's intake: {@code training.jobs.requested} in its own consumer group. The record is acked
 * once the job was trained or skipped; with {@code training.trainer.enabled=false} every record is acked untouched,
 * leaving the jobs to the GPU workers' group. An unreadable record goes to {@code training.jobs.requested.dlq}.
 */
@ApplicationScoped
public class TrainingRequestConsumer {

    private static final Logger LOG = Logger.getLogger(TrainingRequestConsumer.class);

    private final ObjectReader reader;
    private final EmbeddedTrainerService trainer;
    private final TrainerConfig config;

    public TrainingRequestConsumer(ObjectMapper json, EmbeddedTrainerService trainer, TrainerConfig config) {
        this.reader = json.readerFor(TrainingJobRequested.class);
        this.trainer = trainer;
        this.config = config;
    }

    @Incoming("trainer-requests")
    public Uni<Void> consume(String record) {
        if (!config.enabled()) {
            return Uni.createFrom().voidItem();
        }
        TrainingJobRequested request;
        UUID jobId;
        try {
            request = parse(record);
            jobId = uuid(request.jobId(), "job_id");
            uuid(request.modelId(), "model_id");
            if (request.config() == null) {
                throw new MalformedRecordException("config is required");
            }
        } catch (MalformedRecordException malformed) {
            LOG.warnf("Dead-lettering a malformed training.jobs.requested record: %s", malformed.getMessage());
            return Uni.createFrom().failure(malformed);
        }
        return trainer.accept(request, jobId);
    }

    private static UUID uuid(String value, String field) {
        if (value == null) {
            throw new MalformedRecordException(field + " is required");
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException notAnId) {
            throw new MalformedRecordException(field + " '" + value + "' is not a UUID");
        }
    }

    private TrainingJobRequested parse(String record) {
        if (record == null || record.isBlank()) {
            throw new MalformedRecordException("empty record: a TrainingJobRequested JSON object was expected");
        }
        try {
            TrainingJobRequested request = reader.readValue(record);
            if (request == null) {
                throw new MalformedRecordException("null record: a TrainingJobRequested JSON object was expected");
            }
            return request;
        } catch (JsonProcessingException unreadable) {
            throw new MalformedRecordException("not a TrainingJobRequested JSON object: " + unreadable.getOriginalMessage());
        }
    }
}
