package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.automation.store.RecordedEvent;

/** Events newest first; {@code hasMore} says a page follows, asked for with the last event's id. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EventPage(List<RecordedEvent> data, boolean hasMore) {

    /** The page from a fetch of one event more than the limit. */
    static EventPage of(List<RecordedEvent> fetched, int limit) {
        return fetched.size() > limit
                ? new EventPage(List.copyOf(fetched.subList(0, limit)), true)
                : new EventPage(fetched, false);
    }
}
