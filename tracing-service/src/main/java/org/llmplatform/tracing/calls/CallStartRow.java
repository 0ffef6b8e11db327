package org.llmplatform.tracing.calls;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * What a start part writes. JSON columns travel as JSON text; {@code displayNameWrittenAt} is set
 * exactly when {@code displayName} is, and decides which of two writes of it is the last.
 */
public record CallStartRow(
        String projectId,
        String id,
        String traceId,
        String parentId,
        String threadId,
        String turnId,
        String opName,
        String displayName,
        OffsetDateTime displayNameWrittenAt,
        OffsetDateTime startedAt,
        String attributesJson,
        String inputsJson,
        List<String> inputRefs,
        String svcUserId,
        String svcRunId,
        Long svcRunStep,
        String otelDumpJson) {

    /**
     * The start of a call this service makes itself: a trace root outside any thread or run, without a display
     * name, a span or refs in its inputs.
     */
    public static CallStartRow serverMade(String projectId, String id, String traceId, String opName,
            OffsetDateTime startedAt, String attributesJson, String inputsJson, String svcUserId) {
        return new CallStartRow(projectId, id, traceId, null, null, null, opName, null, null, startedAt, attributesJson,
                inputsJson, List.of(), svcUserId, null, null, null);
    }
}
