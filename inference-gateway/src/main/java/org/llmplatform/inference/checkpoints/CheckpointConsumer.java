package org.llmplatform.inference.checkpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.messaging.EventReader;

/**
 * Registers every checkpoint announced on {@code training.checkpoints}, so the gateway serves it. The
 * record is acknowledged once the registration is committed (a redelivery registers nothing new); one
 * that cannot be registered is nacked and lands in {@code training.checkpoints.dlq}.
 */
@Singleton
public class CheckpointConsumer {

    private static final Logger LOG = Logger.getLogger(CheckpointConsumer.class);

    private final EventReader<CheckpointSaved> reader;
    private final CheckpointModels checkpoints;

    public CheckpointConsumer(ObjectMapper json, CheckpointModels checkpoints) {
        this.reader = new EventReader<>(json, Topics.TRAINING_CHECKPOINTS, CheckpointSaved.class, CheckpointSaved::problem);
        this.checkpoints = checkpoints;
    }

    @Incoming("checkpoints")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record)
                .map(Checkpoint::of)
                .flatMap(checkpoint -> checkpoints.register(checkpoint).invoke(added -> {
                    if (added) {
                        LOG.infof("Serving checkpoint %s on %s", checkpoint.name(), checkpoint.baseModel());
                    }
                }))
                .replaceWithVoid();
    }
}
