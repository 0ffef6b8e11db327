package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * An admitted operation of a native training run, published on {@code training.runs.operations} keyed by run id, so
 * one partition orders a run's operations and its executor holds the run's learner in memory
 * (docs/training-service.md#native-runs-over-kafka). {@code command} is a claim check to the command's JSON as the
 * client sent it (batches exceed Kafka's message size). The executor builds the learner at {@code sequenceId} 0 from
 * {@code spec} and {@code initialState}; {@code loadState} is the saved state a {@code load_state} names, null when
 * there is none of the run owner's.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NativeOperationRequested(
        int schemaVersion,
        String operationId,
        String runId,
        long sequenceId,
        String kind,
        String baseModel,
        JsonNode spec,
        LearnerStateRef initialState,
        long learnerParentVersion,
        Long reservedOutputLearnerVersion,
        BlobReference command,
        LearnerStateRef loadState,
        Instant admittedAt) {

    public static final int SCHEMA_VERSION = 1;
}
