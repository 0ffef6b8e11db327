package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.automation.store.AutomationStore;
import org.llmplatform.automation.store.AutomationStore.Candidate;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.automation.store.NewDelivery;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;

/** Matches newly stored events against the enabled automations and queues one delivery per match. */
@ApplicationScoped
public class DeliveryPlanner {

    static final String MASK = "***";

    private final AutomationStore automations;
    private final DeliveryStore deliveries;

    public DeliveryPlanner(AutomationStore automations, DeliveryStore deliveries) {
        this.automations = automations;
        this.deliveries = deliveries;
    }

    /**
     * Runs inside the transaction that stored the events, so the events and their deliveries commit together;
     * one query finds the automations of all of them, one pipelined batch inserts the deliveries. Returns how
     * many deliveries it queued.
     */
    public Uni<Integer> plan(SqlClient transaction, List<ArtifactEvent> events) {
        return automations.candidates(transaction, events).chain(candidates -> {
            List<NewDelivery> planned = new ArrayList<>();
            for (ArtifactEvent event : events) {
                for (Candidate candidate : candidates) {
                    if (candidate.considers(event)) {
                        match(event, candidate).ifPresent(planned::add);
                    }
                }
            }
            return deliveries.insertAll(transaction, planned).replaceWith(planned.size());
        });
    }

    private static Optional<NewDelivery> match(ArtifactEvent event, Candidate candidate) {
        JsonNode filter = EventFilter.unwrap(candidate.automation().event().filter());
        if (!EventFilter.matches(filter, fields(event.aliases(), event.tags()))) {
            return Optional.empty();
        }
        List<String> matched = matched(event, filter);
        String masked = PayloadTemplate.render(candidate.automation().action().payloadTemplate(),
                TemplateValues.of(facts(event), matched, maskedSecrets(candidate)), MASK).toString();
        return Optional.of(new NewDelivery(event.eventId(), candidate.automation(), matched, masked, candidate.webhookEnabled()));
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
        if (candidate.signingSecret() != null) {
            masked.put(candidate.signingSecret(), MASK);
        }
        return masked;
    }

    static Map<String, List<String>> fields(List<String> aliases, List<String> tags) {
        return Map.of("alias", aliases == null ? List.of() : aliases, "tag", tags == null ? List.of() : tags);
    }

    static EventFacts facts(ArtifactEvent event) {
        return new EventFacts(event.eventType().name(), event.entity(), event.project(), event.collection(), event.version(),
                event.author(), event.metadata());
    }
}
