package org.llmplatform.training.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.training.service.CheckpointService;

/**
 * Registers the checkpoints trainers announce on {@code training.checkpoints}. A failed Uni nacks the
 * record into {@code training.checkpoints.dlq}; a checkpoint of a model this service does not know
 * (deleted, or registered elsewhere) is skipped, since no retry would ever make it fit, and so is one
 * saved by a job that was cancelled or failed meanwhile.
 */
@ApplicationScoped
public class CheckpointConsumer {

    private static final Logger LOG = Logger.getLogger(CheckpointConsumer.class);

    private final ObjectReader reader;
    private final CheckpointService checkpoints;

    public CheckpointConsumer(ObjectMapper json, CheckpointService checkpoints) {
        // Python trainers (json.dumps) write NaN/Infinity for a diverged metric; the service drops those values.
        this.reader = json.readerFor(CheckpointSaved.class).with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
        this.checkpoints = checkpoints;
    }

    @Incoming("checkpoints")
    public Uni<Void> consume(String record) {
        CheckpointSaved saved;
        UUID modelId;
        try {
            saved = parse(record);
            modelId = validatedModelId(saved);
        } catch (MalformedRecordException malformed) {
            LOG.warnf("Dead-lettering a malformed training.checkpoints record: %s", malformed.getMessage());
            return Uni.createFrom().failure(malformed);
        }
        return checkpoints.register(modelId, saved).invoke(outcome -> {
            switch (outcome) {
                case REGISTERED -> LOG.infof("Registered checkpoint step %d of model %s", saved.step(), modelId);
                case ALREADY_REGISTERED -> LOG.debugf("Checkpoint step %d of model %s was already registered", saved.step(), modelId);
                case UNKNOWN_MODEL -> LOG.warnf("Skipped checkpoint step %d of unknown model %s", saved.step(), modelId);
                case ABANDONED_JOB -> LOG.warnf("Skipped checkpoint step %d of model %s saved by ended job %s", saved.step(), modelId,
                        saved.jobId());
            }
        }).replaceWithVoid();
    }

    private CheckpointSaved parse(String record) {
        if (record == null || record.isBlank()) {
            throw new MalformedRecordException("empty record: a CheckpointSaved JSON object was expected");
        }
        try {
            CheckpointSaved saved = reader.readValue(record);
            if (saved == null) {
                throw new MalformedRecordException("null record: a CheckpointSaved JSON object was expected");
            }
            return saved;
        } catch (JsonProcessingException unreadable) {
            throw new MalformedRecordException("not a CheckpointSaved JSON object: " + unreadable.getOriginalMessage());
        }
    }

    private static UUID validatedModelId(CheckpointSaved saved) {
        if (saved.modelId() == null) {
            throw new MalformedRecordException("model_id is required");
        }
        if (saved.step() < 0) {
            throw new MalformedRecordException("step must be 0 or more, got " + saved.step());
        }
        try {
            return UUID.fromString(saved.modelId());
        } catch (IllegalArgumentException notAnId) {
            throw new MalformedRecordException("model_id '" + saved.modelId() + "' is not a UUID");
        }
    }
}
