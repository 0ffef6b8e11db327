package org.llmplatform.inference.messaging;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.regex.Pattern;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.inference.service.checkpoint.Checkpoint;
import org.llmplatform.inference.service.checkpoint.CheckpointModels;
import org.llmplatform.inference.service.checkpoint.MalformedCheckpoint;
import org.llmplatform.model.events.CheckpointSaved;

/**
 * Registers every checkpoint announced on {@code training.checkpoints}, so the gateway serves it. The
 * record is acknowledged once the registration is committed (a redelivery registers nothing new); one
 * that cannot be registered is nacked and lands in {@code training.checkpoints.dlq}.
 */
@ApplicationScoped
public class CheckpointConsumer {

    private static final Logger LOG = Logger.getLogger(CheckpointConsumer.class);
    /** Each part becomes a segment of {@code wandb-artifact:///entity/project/name:stepN}. */
    private static final Pattern NAME_PART = Pattern.compile("[^/:\\s]+");

    private final CheckpointModels checkpoints;

    public CheckpointConsumer(CheckpointModels checkpoints) {
        this.checkpoints = checkpoints;
    }

    @Incoming("checkpoints")
    public Uni<Void> consume(CheckpointSaved event) {
        return Uni.createFrom().item(() -> toCheckpoint(event))
                .flatMap(checkpoint -> checkpoints.register(checkpoint).invoke(added -> {
                    if (added) {
                        LOG.infof("Serving checkpoint %s on %s", checkpoint.name(), checkpoint.baseModel());
                    }
                }))
                .replaceWithVoid();
    }

    private static Checkpoint toCheckpoint(CheckpointSaved event) {
        if (event == null) {
            throw new MalformedCheckpoint("the record has no value");
        }
        if (event.schemaVersion() < 1 || event.schemaVersion() > CheckpointSaved.SCHEMA_VERSION) {
            throw new MalformedCheckpoint("unsupported schema_version " + event.schemaVersion());
        }
        if (event.step() < 0) {
            throw new MalformedCheckpoint("step must not be negative, got " + event.step());
        }
        String baseModel = event.baseModel();
        if (baseModel == null || baseModel.isBlank()) {
            throw new MalformedCheckpoint("base_model is required");
        }
        String artifact = event.artifactUri() == null || event.artifactUri().isBlank() ? null : event.artifactUri();
        return new Checkpoint(namePart(event.entity(), "entity"), namePart(event.project(), "project"),
                namePart(event.modelName(), "model_name"), event.step(), event.modelId(), baseModel, artifact);
    }

    private static String namePart(String value, String field) {
        if (value == null || !NAME_PART.matcher(value).matches()) {
            throw new MalformedCheckpoint(field + " is required and may not contain '/', ':' or spaces, got " + value);
        }
        return value;
    }
}
