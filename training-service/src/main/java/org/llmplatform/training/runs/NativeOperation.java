package org.llmplatform.training.runs;

import java.time.OffsetDateTime;

/**
 * One admitted command of a run ({@code kind} is the route it came by), with what executing it produced: a
 * {@code result} (JSON) on success, an error code and message on failure.
 */
public record NativeOperation(String operationId, String runId, String requestId, long sequenceId, String kind, String command,
        String commandDigest, String status, long learnerParentVersion, Long reservedOutputLearnerVersion, boolean cancelRequested,
        int eventCursor, String result, String errorCode, String errorMessage, OffsetDateTime admittedAt, OffsetDateTime startedAt,
        OffsetDateTime endedAt) {

    public static final String ADMITTED = "admitted";
    public static final String RUNNING = "running";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";

    public boolean terminal() {
        return SUCCEEDED.equals(status) || FAILED.equals(status) || CANCELLED.equals(status);
    }
}
