package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A finished call in one record ({@code CompletedCallSchemaForInsert} of {@code calls/complete}): the start and the
 * end of a call together. Lenient like the parts: the TypeScript SDK merges its start and end objects into it, so
 * it carries their extra keys ({@code is_eval}); {@code svc_user_id}/{@code wb_user_id} is ignored (the caller is
 * the owner).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CompletedCall(
        String projectId,
        String id,
        String traceId,
        String opName,
        String startedAt,
        String endedAt,
        String displayName,
        String parentId,
        String threadId,
        String turnId,
        ObjectNode attributes,
        ObjectNode inputs,
        JsonNode output,
        ObjectNode summary,
        ObjectNode otelDump,
        String exception,
        @JsonAlias("wb_run_id") String svcRunId,
        @JsonAlias("wb_run_step") Long svcRunStep,
        @JsonAlias("wb_run_step_end") Long svcRunStepEnd) {

    StartedCall start() {
        return new StartedCall(projectId, id, opName, displayName, traceId, parentId, threadId, turnId, startedAt,
                attributes, inputs, otelDump, svcRunId, svcRunStep);
    }

    EndedCall end() {
        return new EndedCall(projectId, id, endedAt, exception, output, summary, svcRunStepEnd);
    }
}
