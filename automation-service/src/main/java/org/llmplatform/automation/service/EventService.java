package org.llmplatform.automation.service;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.automation.delivery.DeliveryDispatcher;
import org.llmplatform.automation.store.EventStore;
import org.llmplatform.automation.store.EventStore.Position;
import org.llmplatform.automation.store.RecordedEvent;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** The artifact events this service received: stored once each, read back by those who may see their entity. */
@ApplicationScoped
public class EventService {

    private final Pool pool;
    private final EventStore store;
    private final DeliveryPlanner planner;
    private final DeliveryDispatcher dispatcher;
    private final CurrentPrincipal caller;

    public EventService(Pool pool, EventStore store, DeliveryPlanner planner, DeliveryDispatcher dispatcher,
            CurrentPrincipal caller) {
        this.pool = pool;
        this.store = store;
        this.planner = planner;
        this.dispatcher = dispatcher;
        this.caller = caller;
    }

    /**
     * Stores received events and queues their deliveries in one transaction. An event whose id is already
     * stored (a redelivered record), or that repeats an earlier one of the list, is dropped whole, so it
     * never queues deliveries twice. Dispatchers are woken once new deliveries commit.
     */
    public Uni<Void> recordAll(List<ArtifactEvent> received) {
        Map<String, ArtifactEvent> firstOfEachId = new LinkedHashMap<>();
        received.forEach(event -> firstOfEachId.putIfAbsent(event.eventId(), event));
        if (firstOfEachId.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<ArtifactEvent> distinct = List.copyOf(firstOfEachId.values());
        return pool.withTransaction(transaction -> store.insertNew(transaction, distinct)
                        .chain(stored -> {
                            if (stored.size() < distinct.size()) {
                                Log.debugf("%d of %d artifact events were already stored; dropped the redelivered copies",
                                        distinct.size() - stored.size(), distinct.size());
                            }
                            return stored.isEmpty() ? Uni.createFrom().item(0) : planner.plan(transaction, stored);
                        }))
                .invoke(queued -> {
                    if (queued > 0) {
                        dispatcher.wake();
                    }
                })
                .replaceWithVoid();
    }

    public Uni<EventPage> page(EventQuery query) {
        if (query.project().isPresent()) {
            caller.requireProject(query.entity() + "/" + query.project().get());
        } else {
            caller.requireEntity(query.entity());
        }
        return cursor(query)
                .chain(after -> store.newestFirst(query.entity(), query.project(), after, query.limit() + 1))
                .map(fetched -> EventPage.of(fetched, query.limit()));
    }

    /** The event, unless it does not exist or its entity is not the caller's: both are a 404, so ids leak nothing. */
    public Uni<RecordedEvent> find(String eventId) {
        Principal principal = caller.get();
        return store.find(eventId).map(found -> found
                .filter(event -> principal.mayAccessEntity(event.entity()))
                .orElseThrow(() -> ApiException.notFound("No event with id '" + eventId + "'")));
    }

    private Uni<Optional<Position>> cursor(EventQuery query) {
        if (query.before().isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        String before = query.before().get();
        return store.position(query.entity(), before).map(position -> {
            if (position.isEmpty()) {
                throw ApiException.invalidField("value_error", List.of("query", "before"),
                        "No event with id '" + before + "' in entity '" + query.entity() + "'", before);
            }
            return position;
        });
    }
}
