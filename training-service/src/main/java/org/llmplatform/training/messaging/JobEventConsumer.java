package org.llmplatform.training.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.TrainingJobEvent;
import org.llmplatform.training.service.JobEventService;

/**
 * Takes what trainers report on {@code training.jobs.events} into the jobs' state and events. A record
 * that is not a usable event (unreadable, no job id, unknown type, a start without its number of
 * sequences) is nacked into {@code training.jobs.events.dlq} and the consumer moves on.
 */
@ApplicationScoped
public class JobEventConsumer {

    private static final Logger LOG = Logger.getLogger(JobEventConsumer.class);
    private static final Set<String> TYPES = Set.of(TrainingJobEvent.TYPE_TRAINING_STARTED, TrainingJobEvent.TYPE_GRADIENT_STEP,
            TrainingJobEvent.TYPE_TRAINING_ENDED, TrainingJobEvent.TYPE_TRAINING_FAILED, TrainingJobEvent.TYPE_HEARTBEAT);

    private final ObjectReader reader;
    private final JobEventService jobEvents;

    public JobEventConsumer(ObjectMapper json, JobEventService jobEvents) {
        // Python trainers (json.dumps) write NaN/Infinity for a diverged metric; gradient steps drop those values.
        this.reader = json.readerFor(TrainingJobEvent.class).with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
        this.jobEvents = jobEvents;
    }

    @Incoming("job-events")
    public Uni<Void> consume(String record) {
        TrainingJobEvent event;
        UUID jobId;
        try {
            event = parse(record);
            jobId = validatedJobId(event);
        } catch (MalformedRecordException malformed) {
            LOG.warnf("Dead-lettering a malformed training.jobs.events record: %s", malformed.getMessage());
            return Uni.createFrom().failure(malformed);
        }
        return jobEvents.apply(jobId, event);
    }

    private TrainingJobEvent parse(String record) {
        if (record == null || record.isBlank()) {
            throw new MalformedRecordException("empty record: a TrainingJobEvent JSON object was expected");
        }
        try {
            TrainingJobEvent event = reader.readValue(record);
            if (event == null) {
                throw new MalformedRecordException("null record: a TrainingJobEvent JSON object was expected");
            }
            return event;
        } catch (JsonProcessingException unreadable) {
            throw new MalformedRecordException("not a TrainingJobEvent JSON object: " + unreadable.getOriginalMessage());
        }
    }

    private static UUID validatedJobId(TrainingJobEvent event) {
        if (event.type() == null || !TYPES.contains(event.type())) {
            throw new MalformedRecordException("type must be one of " + TYPES + ", got " + event.type());
        }
        if (event.seq() < 0) {
            throw new MalformedRecordException("seq must be 0 or more, got " + event.seq());
        }
        if (TrainingJobEvent.TYPE_TRAINING_STARTED.equals(event.type())
                && !(event.data() != null && event.data().get("num_sequences") instanceof Number count && count.doubleValue() >= 0
                        && count.doubleValue() == Math.rint(count.doubleValue()))) {
            throw new MalformedRecordException("training_started needs data.num_sequences, a whole number of 0 or more");
        }
        if (event.jobId() == null) {
            throw new MalformedRecordException("job_id is required");
        }
        try {
            return UUID.fromString(event.jobId());
        } catch (IllegalArgumentException notAnId) {
            throw new MalformedRecordException("job_id '" + event.jobId() + "' is not a UUID");
        }
    }
}
