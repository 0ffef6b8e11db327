package org.llmplatform.automation.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.automation.store.AutomationStore;
import org.llmplatform.automation.store.AutomationStore.Candidate;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.model.events.ArtifactEvent;
import org.llmplatform.model.events.ArtifactEventType;

/** Matches a newly stored event against the enabled automations and queues one delivery per match. */
@ApplicationScoped
public class DeliveryPlanner {

    static final String MASK = "***";

    private final AutomationStore automations;
    private final DeliveryStore deliveries;

    public DeliveryPlanner(AutomationStore automations, DeliveryStore deliveries) {
        this.automations = automations;
        this.deliveries = deliveries;
    }

    /** Runs inside the transaction that stored the event, so the event and its deliveries commit together. */
    public Uni<Void> plan(SqlClient transaction, ArtifactEvent event) {
        return automations.candidates(transaction, event).chain(candidates -> {
            Uni<Void> queued = Uni.createFrom().voidItem();
            for (Candidate candidate : candidates) {
                JsonNode filter = EventFilter.unwrap(candidate.automation().event().filter());
                if (!EventFilter.matches(filter, fields(event.aliases(), event.tags()))) {
                    continue;
                }
                List<String> matched = matched(event, filter);
                String masked = PayloadTemplate.render(candidate.automation().action().payloadTemplate(),
                        TemplateValues.of(facts(event), matched, maskedSecrets(candidate)), MASK).toString();
                queued = queued.chain(() -> deliveries.insert(transaction, event.eventId(), candidate.automation(), matched,
                        masked, candidate.webhookEnabled()));
            }
            return queued;
        });
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
