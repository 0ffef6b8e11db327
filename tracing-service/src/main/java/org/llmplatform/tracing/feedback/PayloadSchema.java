package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.llmplatform.tracing.feedback.FeedbackStatsEnvelopes.FeedbackPayloadPath;

/**
 * The payload paths of {@code feedback/payload_schema}, found as the reference's {@code discover_payload_schema} finds
 * them: every leaf under objects, by dot path (a key holding a dot or only blanks is skipped); an array of scalars is a
 * leaf of its elements' types, objects inside arrays are left out; a path with characters other than
 * {@code [a-zA-Z0-9_.]} is left out. A path whose values were only booleans and nulls is {@code boolean}, only numbers
 * and nulls {@code numeric}, anything else {@code categorical}; paths in byte order.
 */
final class PayloadSchema {

    private enum Kind { NULL, BOOLEAN, NUMBER, OTHER }

    private static final Set<Kind> BOOLEAN = EnumSet.of(Kind.BOOLEAN, Kind.NULL);
    private static final Set<Kind> NUMERIC = EnumSet.of(Kind.NUMBER, Kind.NULL);

    static List<FeedbackPayloadPath> discover(List<String> payloads, ObjectMapper json) {
        Map<String, Set<Kind>> kinds = new TreeMap<>();
        for (String payload : payloads) {
            JsonNode value;
            try {
                value = json.readTree(payload);
            } catch (JsonProcessingException e) {
                continue;
            }
            collect(value, "", kinds);
        }
        List<FeedbackPayloadPath> paths = new ArrayList<>();
        kinds.forEach((path, seen) -> {
            if (!path.contains("[") && FeedbackMetric.JSON_PATH.matcher(path).matches()) {
                paths.add(new FeedbackPayloadPath(path, BOOLEAN.containsAll(seen) ? "boolean"
                        : NUMERIC.containsAll(seen) ? "numeric" : "categorical"));
            }
        });
        return paths;
    }

    private static void collect(JsonNode value, String prefix, Map<String, Set<Kind>> kinds) {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                String key = field.getKey();
                if (key.contains(".") || key.isBlank()) {
                    continue;
                }
                String path = prefix.isEmpty() ? key : prefix + "." + key;
                if (field.getValue().isContainerNode()) {
                    collect(field.getValue(), path, kinds);
                } else {
                    kind(kinds, path, field.getValue());
                }
            }
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                if (value.get(i).isContainerNode()) {
                    collect(value.get(i), prefix + "[" + i + "]", kinds);
                } else {
                    kind(kinds, prefix, value.get(i));
                }
            }
        } else {
            kind(kinds, prefix, value);
        }
    }

    private static void kind(Map<String, Set<Kind>> kinds, String path, JsonNode value) {
        Kind kind = value.isNull() ? Kind.NULL : value.isBoolean() ? Kind.BOOLEAN : value.isNumber() ? Kind.NUMBER : Kind.OTHER;
        kinds.computeIfAbsent(path, ignored -> EnumSet.noneOf(Kind.class)).add(kind);
    }

    private PayloadSchema() {
    }
}
