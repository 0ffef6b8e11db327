package org.llmplatform.automation.service;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;
import java.util.function.IntSupplier;
import org.llmplatform.automation.delivery.DeliveryDispatcher;
import org.llmplatform.automation.store.Delivery;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** An automation's delivery history, and manual redelivery of one delivery or of every failed one. */
@ApplicationScoped
public class ExecutionService {

    private final AutomationService automations;
    private final DeliveryStore deliveries;
    private final DeliveryDispatcher dispatcher;
    private final CurrentPrincipal caller;

    public ExecutionService(AutomationService automations, DeliveryStore deliveries, DeliveryDispatcher dispatcher,
            CurrentPrincipal caller) {
        this.automations = automations;
        this.deliveries = deliveries;
        this.dispatcher = dispatcher;
        this.caller = caller;
    }

    /** {@code limit} is read once the automation is found, so that a stranger's id is a 404 whatever the limit. */
    public Uni<List<Delivery>> history(UUID automationId, IntSupplier limit) {
        return automations.find(automationId).chain(automation -> deliveries.history(automationId, limit.getAsInt()));
    }

    public Uni<Void> redeliver(UUID automationId, UUID deliveryId) {
        Principal principal = caller.get();
        return automations.managed(automationId, principal)
                .chain(automation -> deliveries.redeliver(automationId, deliveryId))
                .chain(queued -> queued ? Uni.createFrom().item(true) : deliveries.exists(automationId, deliveryId)
                        .invoke(exists -> {
                            throw exists
                                    ? ApiException.conflict("The delivery is already waiting for or in an attempt")
                                    : ApiException.notFound("No delivery '" + deliveryId + "' of automation '" + automationId + "'");
                        }))
                .invoke(dispatcher::wake)
                .replaceWithVoid();
    }

    public Uni<Integer> redeliverFailed(UUID automationId) {
        Principal principal = caller.get();
        return automations.managed(automationId, principal)
                .chain(automation -> deliveries.redeliverFailed(automationId))
                .invoke(dispatcher::wake);
    }
}
