package org.llmplatform.training.service;

public enum CheckpointSaveOutcome {
    REGISTERED,
    ALREADY_REGISTERED,
    UNKNOWN_MODEL,
    /** Saved by a job that was cancelled or failed meanwhile: the model's next step belongs to the next job. */
    ABANDONED_JOB
}
