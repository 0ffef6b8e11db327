package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.NativeOperationRequested;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.runs.NativeOperationExecutor;

/**
 * The embedded executor's intake: {@code training.runs.operations} in its own consumer group, one record at a time, so
 * a run's operations run in order on the replica whose partition holds the run. With {@code training.trainer.enabled=false}
 * every record is acked untouched. An unreadable record goes to {@code training.runs.operations.dlq}.
 */
@ApplicationScoped
public class NativeOperationConsumer {

    private final EventReader<NativeOperationRequested> reader;
    private final NativeOperationExecutor executor;
    private final TrainerConfig config;

    public NativeOperationConsumer(ObjectMapper json, NativeOperationExecutor executor, TrainerConfig config) {
        this.reader = new EventReader<>(json, Topics.TRAINING_RUNS_OPERATIONS, NativeOperationRequested.class,
                request -> request.operationId() == null || request.runId() == null || request.kind() == null || request.command() == null
                        || request.spec() == null ? Optional.of("operation_id, run_id, kind, spec and command are required") : Optional.empty());
        this.executor = executor;
        this.config = config;
    }

    @Incoming("native-operations")
    public Uni<Void> consume(String record) {
        if (!config.enabled()) {
            return Uni.createFrom().voidItem();
        }
        return reader.readOrDeadLetter(record).chain(executor::accept);
    }
}
