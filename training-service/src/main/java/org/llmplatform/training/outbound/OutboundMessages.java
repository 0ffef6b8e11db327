package org.llmplatform.training.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.model.events.NativeOperationRequested;
import org.llmplatform.model.events.TrainingJobControl;
import org.llmplatform.model.events.TrainingJobRequested;
import org.llmplatform.support.outbox.OutboxMessage;
import org.llmplatform.training.store.Model;

/** The records this service publishes, as outbox messages keyed as the topics require. */
@ApplicationScoped
public class OutboundMessages {

    private final ObjectMapper json;

    public OutboundMessages(ObjectMapper json) {
        this.json = json;
    }

    /**
     * A new checkpoint is a new version of the model's artifact collection ({@code entity/project/name},
     * type lora, version {@code v<step>}): it is linked, and the aliases {@code latest} and {@code step<N>} move to it.
     */
    public List<OutboxMessage> checkpointLinked(Model model, int step, String author) {
        List<String> aliases = List.of("latest", "step" + step);
        return List.of(artifactEvent(model, step, ArtifactEventType.LINK_ARTIFACT, aliases, author),
                artifactEvent(model, step, ArtifactEventType.ADD_ARTIFACT_ALIAS, aliases, author));
    }

    /**
     * Step 0 of a newly registered model: the base model without adapter ({@code artifact_uri} null), announced on
     * {@code training.checkpoints} like every trained step so that the inference side can serve {@code :step0}.
     */
    public OutboxMessage baseCheckpoint(Model model) {
        CheckpointSaved saved = new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, model.id().toString(), null, model.entity(),
                model.project(), model.name(), model.baseModel(), 0, null, Map.of(), Instant.now());
        return new OutboxMessage(Topics.TRAINING_CHECKPOINTS, model.id().toString(), write(saved));
    }

    public OutboxMessage jobRequested(TrainingJobRequested request) {
        return new OutboxMessage(Topics.TRAINING_JOBS_REQUESTED, request.modelId(), write(request));
    }

    public OutboxMessage cancel(UUID jobId, UUID modelId, String reason) {
        return new OutboxMessage(Topics.TRAINING_JOBS_CONTROL, modelId.toString(),
                write(TrainingJobControl.cancelJob(jobId.toString(), modelId.toString(), reason)));
    }

    /** A native run's operation for its executor, keyed by run id so one partition orders the run. */
    public OutboxMessage operationRequested(NativeOperationRequested request) {
        return new OutboxMessage(Topics.TRAINING_RUNS_OPERATIONS, request.runId(), write(request));
    }

    /** A native run's order (cancel an operation, close the run), keyed by run id. */
    public OutboxMessage nativeControl(TrainingJobControl control) {
        return new OutboxMessage(Topics.TRAINING_JOBS_CONTROL, control.runId(), write(control));
    }

    /** A checkpoint registered here (a native run's sampler weights), announced to the gateways. */
    public OutboxMessage checkpointSaved(CheckpointSaved saved) {
        return new OutboxMessage(Topics.TRAINING_CHECKPOINTS, saved.modelId(), write(saved));
    }

    private OutboxMessage artifactEvent(Model model, int step, ArtifactEventType type, List<String> aliases, String author) {
        ArtifactEvent event = new ArtifactEvent(ArtifactEvent.SCHEMA_VERSION, UUID.randomUUID().toString(), type,
                model.entity(), model.project(), model.name(), "v" + step, aliases, List.of(), author,
                Map.of("artifact_type", "lora", "model_id", model.id().toString(), "base_model", model.baseModel(), "step", step),
                Instant.now());
        return new OutboxMessage(Topics.ARTIFACT_EVENTS, event.key(), write(event));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write " + value.getClass().getSimpleName(), e);
        }
    }
}
