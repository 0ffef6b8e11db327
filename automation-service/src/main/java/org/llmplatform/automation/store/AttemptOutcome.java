package org.llmplatform.automation.store;

import java.time.Instant;

/**
 * One finished attempt and what becomes of its delivery: {@code nextStatus} is SUCCEEDED, RETRY (at
 * {@code nextAttemptAt}), FAILED or DISCARDED.
 */
public record AttemptOutcome(
        int attemptNumber,
        boolean manual,
        Instant startedAt,
        long durationMs,
        Integer statusCode,
        String responseBody,
        String error,
        boolean succeeded,
        String nextStatus,
        Instant nextAttemptAt) {
}
