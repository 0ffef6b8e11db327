package org.llmplatform.automation.service;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.llmplatform.automation.delivery.DeliveryDispatcher;
import org.llmplatform.automation.store.AutomationStore;
import org.llmplatform.automation.store.DeliveryJob;
import org.llmplatform.automation.store.EventStore;
import org.llmplatform.automation.store.EventStore.Position;
import org.llmplatform.automation.store.NewDelivery;
import org.llmplatform.automation.store.RecordedEvent;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** The artifact events this service received: stored once each, read back by those who may see their entity. */
@ApplicationScoped
public class EventService {

    private final AutomationStore automations;
    private final EventStore store;
    private final DeliveryPlanner planner;
    private final DeliveryDispatcher dispatcher;
    private final CurrentPrincipal caller;

    public EventService(AutomationStore automations, EventStore store, DeliveryPlanner planner, DeliveryDispatcher dispatcher,
            CurrentPrincipal caller) {
        this.automations = automations;
        this.store = store;
        this.planner = planner;
        this.dispatcher = dispatcher;
        this.caller = caller;
    }

    /**
     * Stores received events and queues their deliveries in one statement. An event whose id is already
     * stored (a redelivered record), or that repeats an earlier one of the list, is dropped whole, so it
     * never queues deliveries twice. As many deliveries as the dispatcher has room for are inserted leased
     * to it and handed over once committed; any others are left for its claims, and it is woken for them.
     */
    public Uni<Void> recordAll(List<ArtifactEvent> received) {
        Map<String, ArtifactEvent> firstOfEachId = new LinkedHashMap<>();
        received.forEach(event -> firstOfEachId.putIfAbsent(event.eventId(), event));
        if (firstOfEachId.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<ArtifactEvent> distinct = List.copyOf(firstOfEachId.values());
        return automations.candidates(distinct).chain(candidates -> {
            List<NewDelivery> planned = planner.plan(distinct, candidates);
            List<NewDelivery> sendable = planned.stream().filter(delivery -> delivery.webhook().enabled()).toList();
            int reserved = dispatcher.reserve(sendable.size());
            Set<UUID> leased = new HashSet<>();
            sendable.subList(0, reserved).forEach(delivery -> leased.add(delivery.id()));
            return store.storeWithDeliveries(distinct, planned, leased, dispatcher.lease())
                    .onFailure().invoke(() -> dispatcher.release(reserved))
                    .onCancellation().invoke(() -> dispatcher.release(reserved))
                    .invoke(stored -> handOver(distinct, sendable, leased, reserved, stored));
        }).replaceWithVoid();
    }

    private void handOver(List<ArtifactEvent> distinct, List<NewDelivery> sendable, Set<UUID> leased, int reserved,
            EventStore.Stored stored) {
        if (stored.newEvents() < distinct.size()) {
            Log.debugf("%d of %d artifact events were already stored; dropped the redelivered copies",
                    distinct.size() - stored.newEvents(), distinct.size());
        }
        List<DeliveryJob> firstAttempts = new ArrayList<>();
        boolean leftForClaims = false;
        for (NewDelivery delivery : sendable) {
            if (!stored.queuedDeliveries().contains(delivery.id())) {
                continue;
            }
            if (leased.contains(delivery.id())) {
                firstAttempts.add(delivery.firstAttempt());
            } else {
                leftForClaims = true;
            }
        }
        dispatcher.handOver(firstAttempts, reserved);
        if (leftForClaims) {
            dispatcher.wake();
        }
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
