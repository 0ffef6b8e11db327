package org.llmplatform.training.service;

import java.util.LinkedHashMap;
import java.util.Map;
import org.llmplatform.model.events.TrainingJobEvent;
import org.llmplatform.training.outbound.TrainerPublisher;
import org.llmplatform.training.service.trainer.StepListener;

/**
 * The events of one job as the embedded trainer reports them, numbered 1, 2, … in the order sent (heartbeats
 * come from another thread, so numbering and sending happen under one lock). After a cancel nothing more goes out.
 */
final class JobReporter implements StepListener {

    private final TrainerPublisher publisher;
    private final CancelledJobs cancelledJobs;
    private final String modelId;
    private final String jobId;
    private long seq;

    JobReporter(TrainerPublisher publisher, CancelledJobs cancelledJobs, String modelId, String jobId) {
        this.publisher = publisher;
        this.cancelledJobs = cancelledJobs;
        this.modelId = modelId;
        this.jobId = jobId;
    }

    @Override
    public void started(int numSequences) {
        send(TrainingJobEvent.TYPE_TRAINING_STARTED, Map.of("num_sequences", numSequences));
    }

    @Override
    public void gradientStep(Map<String, Double> metrics) {
        send(TrainingJobEvent.TYPE_GRADIENT_STEP, new LinkedHashMap<>(metrics));
    }

    @Override
    public boolean cancelled() {
        return cancelledJobs.isCancelled(jobId);
    }

    void heartbeat() {
        send(TrainingJobEvent.TYPE_HEARTBEAT, Map.of());
    }

    void ended() {
        send(TrainingJobEvent.TYPE_TRAINING_ENDED, Map.of());
    }

    void failed(String message) {
        send(TrainingJobEvent.TYPE_TRAINING_FAILED, Map.of("error_message", message));
    }

    private synchronized void send(String type, Map<String, Object> data) {
        if (cancelled()) {
            return;
        }
        publisher.event(modelId, jobId, ++seq, type, data);
    }
}
