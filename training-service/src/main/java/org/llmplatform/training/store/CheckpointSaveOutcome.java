package org.llmplatform.training.store;

public enum CheckpointSaveOutcome {
    REGISTERED,
    ALREADY_REGISTERED,
    UNKNOWN_MODEL
}
