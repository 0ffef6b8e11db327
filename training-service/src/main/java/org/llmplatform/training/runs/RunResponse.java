package org.llmplatform.training.runs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** A run as ART's {@code NativeTrainingRun} reads it; {@code spec} is the wire spec it was resolved with, unchanged. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunResponse(String runId, String runName, JsonNode spec, String status, long nextSequenceId, long projectedLearnerVersion,
        long committedLearnerVersion) {
}
