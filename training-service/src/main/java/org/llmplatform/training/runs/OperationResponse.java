package org.llmplatform.training.runs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.OffsetDateTime;

/**
 * An operation as ART's client reads it (its {@code _PublicTrainingOperation}, which forbids other fields, so every field
 * is written, null or not). The result is always inline ({@code result_summary}); {@code result_ref} stays null.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record OperationResponse(String operationId, String runId, String requestId, long sequenceId, String kind, String status,
        long learnerParentVersion, Long reservedOutputLearnerVersion, OffsetDateTime admittedAt, OffsetDateTime startedAt,
        OffsetDateTime endedAt, boolean cancelRequested, int latestEventCursor, JsonNode resultSummary, JsonNode resultRef,
        OperationError error) {

    /** Why an operation failed: ART's wire carries only the code; the message is in the service log. */
    @RegisterForReflection
    public record OperationError(String code) {
    }
}
