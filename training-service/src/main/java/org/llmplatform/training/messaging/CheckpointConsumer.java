package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.messaging.EventReader;
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

    private final EventReader<CheckpointSaved> reader;
    private final CheckpointService checkpoints;

    public CheckpointConsumer(ObjectMapper json, CheckpointService checkpoints) {
        // NaN/Infinity metrics are read; the service drops those values.
        this.reader = new EventReader<>(json, Topics.TRAINING_CHECKPOINTS, CheckpointSaved.class,
                saved -> saved.problem().or(() -> EventReader.notAUuid(saved.modelId(), "model_id")));
        this.checkpoints = checkpoints;
    }

    @Incoming("checkpoints")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record).chain(saved -> {
            UUID modelId = UUID.fromString(saved.modelId());
            return checkpoints.register(modelId, saved).invoke(outcome -> {
                switch (outcome) {
                    case REGISTERED -> LOG.infof("Registered checkpoint step %d of model %s", saved.step(), modelId);
                    case ALREADY_REGISTERED -> LOG.debugf("Checkpoint step %d of model %s was already registered", saved.step(), modelId);
                    case UNKNOWN_MODEL -> LOG.warnf("Skipped checkpoint step %d of unknown model %s", saved.step(), modelId);
                    case ABANDONED_JOB -> LOG.warnf("Skipped checkpoint step %d of model %s saved by ended job %s", saved.step(), modelId,
                            saved.jobId());
                }
            });
        }).replaceWithVoid();
    }
}
