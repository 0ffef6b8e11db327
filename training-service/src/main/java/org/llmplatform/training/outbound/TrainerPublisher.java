package org.llmplatform.training.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.model.events.NativeOperationEvent;
import org.llmplatform.model.events.TrainingJobEvent;

/**
 * What the embedded trainer publishes, as a trainer worker does: job events on {@code training.jobs.events} and
 * saved checkpoints on {@code training.checkpoints}, keyed by model id, and native run operations' events on
 * {@code training.runs.events}, keyed by run id. Sends wait for the broker's ack, so the
 * order of calls is the order on the partition. Called from trainer threads only (it blocks).
 */
@ApplicationScoped
public class TrainerPublisher {

    private final MutinyEmitter<String> events;
    private final MutinyEmitter<String> checkpoints;
    private final MutinyEmitter<String> operationEvents;
    private final ObjectMapper json;

    public TrainerPublisher(@Channel("trainer-events") MutinyEmitter<String> events,
            @Channel("trainer-checkpoints") MutinyEmitter<String> checkpoints,
            @Channel("native-executor-events") MutinyEmitter<String> operationEvents, ObjectMapper json) {
        this.events = events;
        this.checkpoints = checkpoints;
        this.operationEvents = operationEvents;
        this.json = json;
    }

    public void event(String modelId, String jobId, long seq, String type, Map<String, Object> data) {
        TrainingJobEvent event = new TrainingJobEvent(TrainingJobEvent.SCHEMA_VERSION, jobId, modelId, seq, type, data, Instant.now());
        events.sendMessageAndAwait(keyed(modelId, write(event)));
    }

    public void checkpoint(CheckpointSaved saved) {
        checkpoints.sendMessageAndAwait(keyed(saved.modelId(), write(saved)));
    }

    /** A native run operation's event on {@code training.runs.events}, keyed by run id. */
    public void operationEvent(NativeOperationEvent event) {
        operationEvents.sendMessageAndAwait(keyed(event.runId(), write(event)));
    }

    private static Message<String> keyed(String key, String payload) {
        return Message.of(payload).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build());
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write " + value.getClass().getSimpleName(), e);
        }
    }
}
