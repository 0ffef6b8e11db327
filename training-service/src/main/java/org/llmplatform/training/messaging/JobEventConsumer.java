package org.llmplatform.training.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.TrainingJobEvent;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.training.service.JobEventService;

/**
 * Takes what trainers report on {@code training.jobs.events} into the jobs' state and events. A record
 * that is not a usable event (unreadable, no job id, unknown type, a start without its number of
 * sequences) is nacked into {@code training.jobs.events.dlq} and the consumer moves on.
 */
@ApplicationScoped
public class JobEventConsumer {

    private static final Set<String> TYPES = Set.of(TrainingJobEvent.TYPE_TRAINING_STARTED, TrainingJobEvent.TYPE_GRADIENT_STEP,
            TrainingJobEvent.TYPE_TRAINING_ENDED, TrainingJobEvent.TYPE_TRAINING_FAILED, TrainingJobEvent.TYPE_HEARTBEAT);

    private final EventReader<TrainingJobEvent> reader;
    private final JobEventService jobEvents;

    public JobEventConsumer(ObjectMapper json, JobEventService jobEvents) {
        // NaN/Infinity metrics are read; gradient steps drop those values.
        this.reader = new EventReader<>(json, Topics.TRAINING_JOBS_EVENTS, TrainingJobEvent.class, JobEventConsumer::problem);
        this.jobEvents = jobEvents;
    }

    @Incoming("job-events")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record).chain(event -> jobEvents.apply(UUID.fromString(event.jobId()), event));
    }

    private static Optional<String> problem(TrainingJobEvent event) {
        if (event.type() == null || !TYPES.contains(event.type())) {
            return Optional.of("type must be one of " + TYPES + ", got " + event.type());
        }
        if (event.seq() < 0) {
            return Optional.of("seq must be 0 or more, got " + event.seq());
        }
        if (TrainingJobEvent.TYPE_TRAINING_STARTED.equals(event.type())
                && !(event.data() != null && event.data().get("num_sequences") instanceof Number count && count.doubleValue() >= 0
                        && count.doubleValue() == Math.rint(count.doubleValue()))) {
            return Optional.of("training_started needs data.num_sequences, a whole number of 0 or more");
        }
        return EventReader.notAUuid(event.jobId(), "job_id");
    }
}
