package org.llmplatform.model;

import java.util.List;

/** Kafka topic names: the contract between the services (docs/platform.md#services-and-topics). */
public final class Topics {

    public static final String ARTIFACT_EVENTS = "artifact.events";
    public static final String TRAINING_JOBS_REQUESTED = "training.jobs.requested";
    public static final String TRAINING_JOBS_EVENTS = "training.jobs.events";
    public static final String TRAINING_JOBS_CONTROL = "training.jobs.control";
    public static final String TRAINING_CHECKPOINTS = "training.checkpoints";
    public static final String TRAINING_RUNS_OPERATIONS = "training.runs.operations";
    public static final String TRAINING_RUNS_EVENTS = "training.runs.events";
    public static final String INFERENCE_USAGE = "inference.usage";

    /** Every topic the platform produces to, dead-letter topics included. */
    public static final List<String> ALL = List.of(
            ARTIFACT_EVENTS, deadLetter(ARTIFACT_EVENTS),
            TRAINING_JOBS_REQUESTED, deadLetter(TRAINING_JOBS_REQUESTED),
            TRAINING_JOBS_EVENTS, deadLetter(TRAINING_JOBS_EVENTS),
            TRAINING_JOBS_CONTROL,
            TRAINING_CHECKPOINTS, deadLetter(TRAINING_CHECKPOINTS),
            TRAINING_RUNS_OPERATIONS, deadLetter(TRAINING_RUNS_OPERATIONS),
            TRAINING_RUNS_EVENTS, deadLetter(TRAINING_RUNS_EVENTS),
            INFERENCE_USAGE, deadLetter(INFERENCE_USAGE));

    public static String deadLetter(String topic) {
        return topic + ".dlq";
    }

    private Topics() {
    }
}
