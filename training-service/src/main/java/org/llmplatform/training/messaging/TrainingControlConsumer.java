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
import org.llmplatform.training.runs.NativeRunOrders;
import org.llmplatform.training.service.CancelledJobs;

/**
 * Orders to the embedded trainer and native-run executor from {@code training.jobs.control}: a cancel stops the job
 * between rows, a cancelled operation stops between sequences, a closed run's learner is dropped. A record
 * that is not an order is logged and skipped (the platform has no dead-letter topic for control records).
 */
@ApplicationScoped
public class TrainingControlConsumer {

    private static final Logger LOG = Logger.getLogger(TrainingControlConsumer.class);

    private final EventReader<TrainingJobControl> reader;
    private final CancelledJobs cancelledJobs;
    private final NativeRunOrders nativeRuns;

    public TrainingControlConsumer(ObjectMapper json, CancelledJobs cancelledJobs, NativeRunOrders nativeRuns) {
        this.reader = new EventReader<>(json, Topics.TRAINING_JOBS_CONTROL, TrainingJobControl.class,
                TrainingControlConsumer::missing);
        this.cancelledJobs = cancelledJobs;
        this.nativeRuns = nativeRuns;
    }

    private static Optional<String> missing(TrainingJobControl control) {
        if (control.action() == null) {
            return Optional.of("no action");
        }
        return switch (control.action()) {
            case TrainingJobControl.ACTION_CANCEL -> control.jobId() == null ? Optional.of("no job_id") : Optional.empty();
            case TrainingJobControl.ACTION_CANCEL_OPERATION -> control.operationId() == null ? Optional.of("no operation_id") : Optional.empty();
            case TrainingJobControl.ACTION_CLOSE_RUN -> control.runId() == null ? Optional.of("no run_id") : Optional.empty();
            default -> Optional.of("unknown action " + control.action());
        };
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
        switch (control.action()) {
            case TrainingJobControl.ACTION_CANCEL -> {
                LOG.infof("Training job %s is cancelled: %s", control.jobId(), control.reason());
                cancelledJobs.cancel(control.jobId());
            }
            case TrainingJobControl.ACTION_CANCEL_OPERATION -> nativeRuns.cancel(control.operationId());
            default -> nativeRuns.close(control.runId());
        }
    }
}
