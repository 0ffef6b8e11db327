package org.llmplatform.tracing.calls;

import java.time.OffsetDateTime;
import java.util.List;

/** What an end part writes; JSON columns travel as JSON text, {@code null} for none. */
public record CallEndRow(
        String projectId,
        String id,
        OffsetDateTime endedAt,
        String exception,
        String outputJson,
        List<String> outputRefs,
        String summaryJson,
        Long svcRunStepEnd) {
}
