package org.llmplatform.training.runs;

/**
 * A run of the native training API: one learner (a LoRA adapter with its optimizer) that {@code owner} drives with
 * sequenced operations. {@code spec} and {@code initialState} are the JSON the client resolved it with, echoed back.
 */
public record NativeRun(String runId, String owner, String requestId, String runName, String spec, String initialState, String status,
        long nextSequenceId, long projectedLearnerVersion, long committedLearnerVersion) {

    public static final String OPEN = "open";
    public static final String CLOSED = "closed";
    /** Its learner was lost with its executor; resolve a new run from a saved state. */
    public static final String FAILED = "failed";

    public boolean open() {
        return OPEN.equals(status);
    }
}
