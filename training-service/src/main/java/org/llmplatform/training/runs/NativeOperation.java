package org.llmplatform.training.runs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;

/**
 * One admitted command of a run ({@code kind} is the route it came by), with what executing it produced: a
 * {@code result} (JSON) on success, an error code and message on failure; {@code executor} and {@code executorSeq}
 * are the last event's sender and number.
 */
public record NativeOperation(String operationId, String runId, String requestId, long sequenceId, String kind, String command,
        String commandDigest, String status, long learnerParentVersion, Long reservedOutputLearnerVersion, boolean cancelRequested,
        int eventCursor, String result, String errorCode, String errorMessage, OffsetDateTime admittedAt, OffsetDateTime startedAt,
        OffsetDateTime endedAt, String executor, long executorSeq) {

    public static final String ADMITTED = "admitted";
    public static final String RUNNING = "running";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";

    /** The {@code checkpoint} of an operation's result: {@code {checkpoint_id, learner_version}}. */
    static ObjectNode checkpointResult(String checkpointId, long learnerVersion) {
        ObjectNode checkpoint = JsonNodeFactory.instance.objectNode();
        checkpoint.put("checkpoint_id", checkpointId);
        checkpoint.put("learner_version", learnerVersion);
        return checkpoint;
    }

    public boolean terminal() {
        return SUCCEEDED.equals(status) || FAILED.equals(status) || CANCELLED.equals(status);
    }
}
