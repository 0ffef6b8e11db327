package org.llmplatform.automation.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.automation.service.EventPage;
import org.llmplatform.automation.service.EventQuery;
import org.llmplatform.automation.service.EventService;
import org.llmplatform.automation.store.RecordedEvent;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

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
    @BodyChecks(entityParameters = "entity")
    public Uni<EventPage> list(@RestQuery String entity, @RestQuery String project, @RestQuery String limit,
            @RestQuery String before) {
        return events.page(new EventQuery(Parameters.required(entity, In.QUERY, "entity"), present(project),
                Parameters.limit(limit, EventQuery.DEFAULT_LIMIT, EventQuery.MAX_LIMIT), present(before)));
    }

    @GET
    @Path("{event_id}")
    public Uni<RecordedEvent> get(@RestPath("event_id") String eventId) {
        return events.find(eventId);
    }

    private static Optional<String> present(String value) {
        return Optional.ofNullable(value).filter(text -> !text.isBlank());
    }
}
