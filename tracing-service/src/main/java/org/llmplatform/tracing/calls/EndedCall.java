package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The end part of a call ({@code EndedCallSchemaForInsert}). Lenient: unknown keys, such as the
 * {@code display_name} the TypeScript SDK sends here, are ignored.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EndedCall(
        String projectId,
        String id,
        String endedAt,
        String exception,
        JsonNode output,
        ObjectNode summary,
        @JsonAlias("wb_run_step_end") Long svcRunStepEnd) {
}
