package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The start part of a call ({@code StartedCallSchemaForInsert}). Lenient: unknown keys are ignored,
 * and so is any {@code svc_user_id}/{@code wb_user_id} a client sends, since the owner is always
 * the authenticated caller.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record StartedCall(
        String projectId,
        String id,
        String opName,
        String displayName,
        String traceId,
        String parentId,
        String threadId,
        String turnId,
        String startedAt,
        ObjectNode attributes,
        ObjectNode inputs,
        ObjectNode otelDump,
        @JsonAlias("wb_run_id") String svcRunId,
        @JsonAlias("wb_run_step") Long svcRunStep) {
}
