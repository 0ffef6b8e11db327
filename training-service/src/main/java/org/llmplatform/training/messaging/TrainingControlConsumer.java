package org.llmplatform.training.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.TrainingJobControl;
import org.llmplatform.training.service.CancelledJobs;

/**
 * Orders to the embedded trainer from {@code training.jobs.control}: a cancel stops the job between rows. A record
 * that is not an order is logged and skipped (the platform has no dead-letter topic for control records).
 */
@ApplicationScoped
public class TrainingControlConsumer {

    private static final Logger LOG = Logger.getLogger(TrainingControlConsumer.class);

    private final ObjectReader reader;
    private final CancelledJobs cancelledJobs;

    public TrainingControlConsumer(ObjectMapper json, CancelledJobs cancelledJobs) {
        this.reader = json.readerFor(TrainingJobControl.class);
        this.cancelledJobs = cancelledJobs;
    }

    @Incoming("trainer-control")
    public void consume(String record) {
        TrainingJobControl control;
        try {
            control = record == null || record.isBlank() ? null : reader.readValue(record);
        } catch (JsonProcessingException unreadable) {
            LOG.warnf("Skipped a training.jobs.control record that is not a TrainingJobControl: %s", unreadable.getOriginalMessage());
            return;
        }
        if (control == null || control.jobId() == null) {
            LOG.warn("Skipped a training.jobs.control record without a job_id");
            return;
        }
        if (TrainingJobControl.ACTION_CANCEL.equals(control.action())) {
            LOG.infof("Training job %s is cancelled: %s", control.jobId(), control.reason());
            cancelledJobs.cancel(control.jobId());
        }
    }
}
