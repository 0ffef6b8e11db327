package org.llmplatform.automation.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;

/** Turns the text of an {@code artifact.events} record into an event, or says why it is not one. */
@ApplicationScoped
public class ArtifactEventReader {

    private final ObjectMapper json;

    public ArtifactEventReader(ObjectMapper json) {
        this.json = json;
    }

    public ArtifactEvent read(String record) {
        if (record == null || record.isBlank()) {
            throw new InvalidArtifactEvent("The record is empty");
        }
        ArtifactEvent event = parse(record);
        List<String> missing = new ArrayList<>();
        requirePresent(event.eventId(), "event_id", missing);
        requirePresent(event.eventType() == null ? null : event.eventType().name(), "event_type", missing);
        requirePresent(event.entity(), "entity", missing);
        requirePresent(event.project(), "project", missing);
        requirePresent(event.collection(), "collection", missing);
        if (!missing.isEmpty()) {
            throw new InvalidArtifactEvent("The artifact event lacks " + String.join(", ", missing));
        }
        return event;
    }

    private ArtifactEvent parse(String record) {
        try {
            ArtifactEvent event = json.readValue(record, ArtifactEvent.class);
            if (event == null) {
                throw new InvalidArtifactEvent("The record is JSON null, not an artifact event");
            }
            return event;
        } catch (InvalidFormatException wrong) {
            if (wrong.getTargetType() == ArtifactEventType.class) {
                throw new InvalidArtifactEvent("Unknown event_type '" + wrong.getValue() + "'; expected one of "
                        + Arrays.toString(ArtifactEventType.values()));
            }
            throw new InvalidArtifactEvent("The record is not a valid artifact event: " + wrong.getOriginalMessage());
        } catch (JsonProcessingException unreadable) {
            throw new InvalidArtifactEvent("The record is not a valid artifact event: " + unreadable.getOriginalMessage());
        }
    }

    private static void requirePresent(String value, String field, List<String> missing) {
        if (value == null || value.isBlank()) {
            missing.add(field);
        }
    }
}
