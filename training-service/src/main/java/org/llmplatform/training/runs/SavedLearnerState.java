package org.llmplatform.training.runs;

/**
 * What {@code save_state} wrote: the adapter and AdamW's two moments (each stored as an adapter of the same shape) and
 * its step count, at {@code learnerVersion} of run {@code runId}.
 */
public record SavedLearnerState(String checkpointId, String runId, String owner, String name, long learnerVersion, String adapterUri,
        String firstMomentUri, String secondMomentUri, int optimizerSteps) {
}
