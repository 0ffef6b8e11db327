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
}
