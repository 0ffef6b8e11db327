package org.llmplatform.automation.store;

import java.util.List;

/** A delivery to queue: an event matched an automation; the payload is rendered with its secrets masked. */
public record NewDelivery(String eventId, Automation automation, List<String> matchedValues, String maskedPayload,
        boolean webhookEnabled) {
}
