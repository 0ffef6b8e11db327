package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.TrainingJobControl;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.support.messaging.MalformedEvent;
import org.llmplatform.training.service.CancelledJobs;

/**
 * Orders to the embedded trainer from {@code training.jobs.control}: a cancel stops the job between rows. A record
 * that is not an order is logged and skipped (the platform has no dead-letter topic for control records).
 */
@ApplicationScoped
public class TrainingControlConsumer {

    private static final Logger LOG = Logger.getLogger(TrainingControlConsumer.class);

    private final EventReader<TrainingJobControl> reader;
    private final CancelledJobs cancelledJobs;

    public TrainingControlConsumer(ObjectMapper json, CancelledJobs cancelledJobs) {
        this.reader = new EventReader<>(json, Topics.TRAINING_JOBS_CONTROL, TrainingJobControl.class,
                control -> control.jobId() == null ? Optional.of("no job_id") : Optional.empty());
        this.cancelledJobs = cancelledJobs;
    }

    @Incoming("trainer-control")
    public void consume(String record) {
        TrainingJobControl control;
        try {
            control = reader.read(record);
        } catch (MalformedEvent malformed) {
            LOG.warnf("Skipped a training.jobs.control record that is not a usable TrainingJobControl: %s", malformed.getMessage());
            return;
        }
        if (TrainingJobControl.ACTION_CANCEL.equals(control.action())) {
            LOG.infof("Training job %s is cancelled: %s", control.jobId(), control.reason());
            cancelledJobs.cancel(control.jobId());
        }
    }
}
