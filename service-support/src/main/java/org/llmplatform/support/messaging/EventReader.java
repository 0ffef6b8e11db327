package org.llmplatform.support.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.smallrye.mutiny.Uni;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Reads the JSON values of one topic into a shared-model event and checks it: the one way the services read Kafka.
 * The channel's value deserializer is {@code StringDeserializer}, so that a value that is not a usable event fails
 * here, in the consumer, and goes to the topic's dead-letter queue as it came, with the reason as
 * {@code dead-letter-reason}. Python producers (json.dumps) write NaN and Infinity for a diverged metric, so those
 * numbers are read; the event's own checks decide what to do with them.
 */
public final class EventReader<T> {

    private static final Logger LOG = Logger.getLogger(EventReader.class);

    private final String topic;
    private final String typeName;
    private final ObjectReader reader;
    private final Function<T, Optional<String>> problem;

    /**
     * @param problem what makes a read event unusable (empty when nothing does): the contract's own check,
     *                then whatever this consumer needs beyond it
     */
    public EventReader(ObjectMapper json, String topic, Class<T> type, Function<T, Optional<String>> problem) {
        this.topic = topic;
        this.typeName = type.getSimpleName();
        this.reader = json.readerFor(type).with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
        this.problem = problem;
    }

    /** For a {@code problem} check: why {@code value}, the event's {@code field}, is no UUID, or empty when it is one. */
    public static Optional<String> notAUuid(String value, String field) {
        if (value == null) {
            return Optional.of(field + " is required");
        }
        try {
            UUID.fromString(value);
            return Optional.empty();
        } catch (IllegalArgumentException notAnId) {
            return Optional.of(field + " '" + value + "' is not a UUID");
        }
    }

    /** The event, or {@link MalformedEvent} saying why the record is none. */
    public T read(String record) {
        if (record == null || record.isBlank()) {
            throw new MalformedEvent("empty record: a " + typeName + " JSON object was expected");
        }
        T event;
        try {
            event = reader.readValue(record);
        } catch (JsonProcessingException unreadable) {
            throw new MalformedEvent("not a " + typeName + " JSON object: " + unreadable.getOriginalMessage());
        }
        if (event == null) {
            throw new MalformedEvent("null record: a " + typeName + " JSON object was expected");
        }
        problem.apply(event).ifPresent(reason -> {
            throw new MalformedEvent(reason);
        });
        return event;
    }

    /** The event, or a failure (logged) that dead-letters the record. */
    public Uni<T> readOrDeadLetter(String record) {
        try {
            return Uni.createFrom().item(read(record));
        } catch (MalformedEvent malformed) {
            LOG.warnf("Dead-lettering a malformed %s record: %s", topic, malformed.getMessage());
            return Uni.createFrom().failure(malformed);
        }
    }
}
