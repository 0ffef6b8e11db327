package org.llmplatform.automation.store;

import java.util.List;
import java.util.UUID;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;

/**
 * A delivery to queue: an event matched an automation; the payload is rendered with its secrets masked.
 * The id is chosen here, so the first attempt can start from this very object once the row is committed.
 */
public record NewDelivery(UUID id, String eventId, EventFacts event, Automation automation, WebhookTarget webhook,
        List<String> matchedValues, String maskedPayload) {

    /** The first attempt, for the dispatcher that the row was leased to when it was inserted. */
    public DeliveryJob firstAttempt() {
        return new DeliveryJob(id, automation.id(), 1, false, automation.action().payloadTemplate().toString(), matchedValues,
                event, webhook);
    }
}
