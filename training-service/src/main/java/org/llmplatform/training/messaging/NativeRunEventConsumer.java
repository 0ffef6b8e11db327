package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.NativeOperationEvent;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.training.runs.NativeRunEvents;

/**
 * What executors report about native run operations ({@code training.runs.events}), applied in order per run. A record
 * that is not a usable event goes to {@code training.runs.events.dlq}.
 */
@ApplicationScoped
public class NativeRunEventConsumer {

    private static final Set<String> TYPES = Set.of(NativeOperationEvent.TYPE_RUNNING, NativeOperationEvent.TYPE_HEARTBEAT,
            NativeOperationEvent.TYPE_SUCCEEDED, NativeOperationEvent.TYPE_FAILED, NativeOperationEvent.TYPE_CANCELLED);

    private final EventReader<NativeOperationEvent> reader;
    private final NativeRunEvents events;

    public NativeRunEventConsumer(ObjectMapper json, NativeRunEvents events) {
        this.reader = new EventReader<>(json, Topics.TRAINING_RUNS_EVENTS, NativeOperationEvent.class,
                event -> event.operationId() == null || event.runId() == null || event.executor() == null ? Optional.of(
                        "operation_id, run_id and executor are required")
                        : !TYPES.contains(event.type()) ? Optional.of("type must be one of " + TYPES) : Optional.empty());
        this.events = events;
    }

    @Incoming("native-run-events")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record).chain(events::apply);
    }
}
