package org.llmplatform.tracing.calls;

import java.time.OffsetDateTime;

/**
 * A visible call as stored, JSON columns as JSON text. Attributes already carry the OTel span
 * ({@code attributes.otel_span}) when the call came from OTel; the storage sizes are null unless asked for.
 */
public record StoredCall(
        String projectId,
        String id,
        String opName,
        String displayName,
        String traceId,
        String parentId,
        String threadId,
        String turnId,
        OffsetDateTime startedAt,
        String attributesJson,
        String inputsJson,
        OffsetDateTime endedAt,
        String exception,
        String outputJson,
        String summaryJson,
        String svcUserId,
        String svcRunId,
        Long svcRunStep,
        Long svcRunStepEnd,
        OffsetDateTime deletedAt,
        Long storageSizeBytes,
        Long totalStorageSizeBytes,
        OffsetDateTime expireAt) {
}
