package org.llmplatform.training.store;

import org.llmplatform.model.events.TrainingJobRequested;

/** What a job trains: one RL (GRPO) step, or supervised fine-tuning on a training file. */
public enum JobKind {
    RL(TrainingJobRequested.KIND_RL),
    SFT(TrainingJobRequested.KIND_SFT);

    private final String wireName;

    JobKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name in {@code training.jobs.kind} and in {@code TrainingJobRequested.kind}. */
    public String wireName() {
        return wireName;
    }

    public static JobKind of(String wireName) {
        for (JobKind kind : values()) {
            if (kind.wireName.equals(wireName)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown job kind " + wireName);
    }
}
