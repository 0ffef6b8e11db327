package org.llmplatform.automation.store;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A claimed delivery with what sending it needs: the event, the template and the webhook as they are now. */
public record DeliveryJob(
        UUID id,
        UUID automationId,
        int attemptNumber,
        boolean manual,
        String payloadTemplate,
        List<String> matchedValues,
        EventFacts event,
        WebhookTarget webhook) {

    /** The parts of an artifact event that payload variables read; {@code versionIndex} is null when unknown. */
    public record EventFacts(String eventType, String entity, String project, String collection, String version,
            Integer versionIndex, String author, Map<String, Object> metadata) {
    }
}
