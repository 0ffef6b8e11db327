package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A call as reads return it: every field always present, {@code null} when unset. The stored JSON
 * of attributes, inputs and output passes through as it is; the summary carries the derived
 * {@code summary.weave}.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CallSchema(
        String id,
        String projectId,
        String opName,
        String displayName,
        String traceId,
        String parentId,
        String threadId,
        String turnId,
        String startedAt,
        @JsonRawValue String attributes,
        @JsonRawValue String inputs,
        String endedAt,
        String exception,
        @JsonRawValue String output,
        ObjectNode summary,
        String svcUserId,
        String svcRunId,
        Long svcRunStep,
        Long svcRunStepEnd,
        String deletedAt,
        Long storageSizeBytes,
        Long totalStorageSizeBytes,
        String expireAt) {

    /** The same call without its summary, for queries whose columns leave it out. */
    public CallSchema withoutSummary() {
        return new CallSchema(id, projectId, opName, displayName, traceId, parentId, threadId, turnId, startedAt,
                attributes, inputs, endedAt, exception, output, null, svcUserId, svcRunId, svcRunStep, svcRunStepEnd,
                deletedAt, storageSizeBytes, totalStorageSizeBytes, expireAt);
    }
}
