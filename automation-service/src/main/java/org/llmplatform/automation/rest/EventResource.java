package org.llmplatform.automation.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.automation.service.EventPage;
import org.llmplatform.automation.service.EventQuery;
import org.llmplatform.automation.service.EventService;
import org.llmplatform.automation.store.RecordedEvent;
import org.llmplatform.support.error.ApiException;

/** The artifact events received from Kafka, per entity, newest first. */
@Path("/events")
@Produces(MediaType.APPLICATION_JSON)
public class EventResource {

    private final EventService events;

    public EventResource(EventService events) {
        this.events = events;
    }

    /** Query parameters arrive as text so that a bad one is a 422 naming it, not JAX-RS's bare 404. */
    @GET
    public Uni<EventPage> list(@RestQuery String entity, @RestQuery String project, @RestQuery String limit,
            @RestQuery String before) {
        if (entity == null || entity.isBlank()) {
            throw ApiException.invalidField("missing", List.of("query", "entity"), "Field required", null);
        }
        return events.page(new EventQuery(entity, present(project), limit(limit), present(before)));
    }

    @GET
    @Path("{event_id}")
    public Uni<RecordedEvent> get(@RestPath("event_id") String eventId) {
        return events.find(eventId);
    }

    private static int limit(String raw) {
        if (raw == null) {
            return EventQuery.DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(raw.strip());
        } catch (NumberFormatException notANumber) {
            throw invalidLimit("int_parsing", "Input should be a valid integer, unable to parse string as an integer", raw);
        }
        if (limit < 1) {
            throw invalidLimit("greater_than_equal", "Input should be greater than or equal to 1", raw);
        }
        if (limit > EventQuery.MAX_LIMIT) {
            throw invalidLimit("less_than_equal", "Input should be less than or equal to " + EventQuery.MAX_LIMIT, raw);
        }
        return limit;
    }

    private static ApiException invalidLimit(String type, String message, String raw) {
        return ApiException.invalidField(type, List.of("query", "limit"), message, raw);
    }

    private static Optional<String> present(String value) {
        return Optional.ofNullable(value).filter(text -> !text.isBlank());
    }
}
