package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.automation.store.AutomationStore.Candidate;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;
import org.llmplatform.automation.store.NewDelivery;
import org.llmplatform.automation.template.PayloadTemplate;
import org.llmplatform.automation.template.TemplateValues;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;

/** Matches received events against the enabled automations: what each match should deliver, rendered with its secrets masked. */
@ApplicationScoped
public class DeliveryPlanner {

    static final String MASK = "***";

    /** One delivery per (event, candidate automation that considers it and whose filter accepts it). */
    public List<NewDelivery> plan(List<ArtifactEvent> events, List<Candidate> candidates) {
        List<NewDelivery> planned = new ArrayList<>();
        for (ArtifactEvent event : events) {
            for (Candidate candidate : candidates) {
                if (candidate.considers(event)) {
                    match(event, candidate).ifPresent(planned::add);
                }
            }
        }
        return planned;
    }

    private static Optional<NewDelivery> match(ArtifactEvent event, Candidate candidate) {
        JsonNode filter = EventFilter.unwrap(candidate.automation().event().filter());
        if (!EventFilter.matches(filter, fields(event.aliases(), event.tags()))) {
            return Optional.empty();
        }
        List<String> matched = matched(event, filter);
        EventFacts facts = facts(event);
        String masked = PayloadTemplate.render(candidate.automation().action().payloadTemplate(),
                TemplateValues.of(facts, matched, maskedSecrets(candidate)), MASK).toString();
        return Optional.of(new NewDelivery(UUID.randomUUID(), event.eventId(), facts, candidate.automation(), candidate.webhook(),
                matched, masked));
    }

    /** The alias and tag that an alias- or tag-added automation reports: those of the event its filter accepts alone. */
    static List<String> matched(ArtifactEvent event, JsonNode filter) {
        String alias = event.eventType() == ArtifactEventType.ADD_ARTIFACT_ALIAS ? accepted(event.aliases(), "alias", filter, event.tags()) : "";
        String tag = event.eventType() == ArtifactEventType.ADD_ARTIFACT_TAG ? accepted(event.tags(), "tag", filter, event.aliases()) : "";
        return List.of(alias, tag);
    }

    private static String accepted(List<String> values, String field, JsonNode filter, List<String> others) {
        if (values == null || values.isEmpty()) {
            return "";
        }
        List<String> accepted = new ArrayList<>();
        for (String value : values) {
            Map<String, List<String>> one = field.equals("alias") ? fields(List.of(value), others) : fields(others, List.of(value));
            if (EventFilter.matches(filter, one)) {
                accepted.add(value);
            }
        }
        return String.join(",", accepted.isEmpty() ? values : accepted);
    }

    private static Map<String, String> maskedSecrets(Candidate candidate) {
        Map<String, String> masked = new HashMap<>();
        masked.put(PayloadTemplate.ACCESS_TOKEN, MASK);
        if (candidate.webhook().signingSecret() != null) {
            masked.put(candidate.webhook().signingSecret(), MASK);
        }
        return masked;
    }

    static Map<String, List<String>> fields(List<String> aliases, List<String> tags) {
        return Map.of("alias", aliases == null ? List.of() : aliases, "tag", tags == null ? List.of() : tags);
    }

    static EventFacts facts(ArtifactEvent event) {
        return new EventFacts(event.eventType().name(), event.entity(), event.project(), event.collection(), event.version(),
                event.knownVersionIndex().orElse(null), event.author(), event.metadata());
    }
}
