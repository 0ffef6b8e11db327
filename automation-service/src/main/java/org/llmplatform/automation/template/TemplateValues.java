package org.llmplatform.automation.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;

/** The values of the payload variables of docs/automation-service.md#payload-templates for one event. */
public final class TemplateValues {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code matched} holds the alias and the tag that made an alias- or tag-added automation fire (empty
     * for other event types); {@code secrets} maps secret variables (ACCESS_TOKEN, the secret's name) to values.
     */
    public static Map<String, JsonNode> of(EventFacts event, List<String> matched, Map<String, String> secrets) {
        Map<String, JsonNode> values = new HashMap<>();
        String collectionPath = event.entity() + "/" + event.project() + "/" + event.collection();
        String alias = matched.isEmpty() ? "" : matched.get(0);
        String tag = matched.size() < 2 ? "" : matched.get(1);
        String versionName = event.versionIndex() != null ? "v" + event.versionIndex()
                : event.version() == null || event.version().isBlank() ? alias : event.version();
        String identity = event.version() == null || event.version().isBlank() ? versionName : event.version();
        values.put("project_name", text(event.project()));
        values.put("entity_name", text(event.entity()));
        values.put("event_type", text(event.eventType()));
        values.put("event_author", text(event.author()));
        values.put("alias", text(alias));
        values.put("tag", text(tag));
        values.put("artifact_collection_name", text(event.collection()));
        // <collection>:<alias> names the version by the (first) alias the event is about, else by its index vN
        // (W&B's name:v0), never by a producer's own identifier such as a content digest.
        String reference = alias.isEmpty() ? versionName : alias.split(",", 2)[0];
        values.put("artifact_version_string", text(collectionPath + ":" + reference));
        values.put("artifact_version", text("svc-artifact://_id/" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString((collectionPath + ":" + identity).getBytes(StandardCharsets.UTF_8))));
        if (event.metadata() != null) {
            event.metadata().forEach((key, value) -> values.put(PayloadTemplate.METADATA_PREFIX + key, JSON.valueToTree(value)));
        }
        // A secret named like an event variable cannot shadow it: the event value wins.
        secrets.forEach((name, value) -> values.putIfAbsent(name, text(value)));
        return values;
    }

    private static JsonNode text(String value) {
        return TextNode.valueOf(value == null ? "" : value);
    }

    private TemplateValues() {
    }
}
