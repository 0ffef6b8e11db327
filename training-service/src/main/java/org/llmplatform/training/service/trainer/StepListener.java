package org.llmplatform.training.service.trainer;

import java.util.Map;

/** Hears a job's progress as it trains, to report it (docs/training-service.md#job-protocol events). */
public interface StepListener {

    void started(int numSequences);

    void gradientStep(Map<String, Double> metrics);

    /** Called between rows: true when the job was cancelled and must stop. */
    boolean cancelled();
}
