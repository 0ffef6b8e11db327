package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.otel.OtlpModel.Attribute;

/**
 * Span attributes "unflattened" as the reference does: dotted keys become nested objects
 * ({@code a.b=1} → {@code {"a":{"b":1}}}) and objects keyed 0..n-1 become lists ({@code a.0.b}).
 */
final class AttributeTree {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Two keys that cannot both be nested ({@code a=1} and {@code a.b=2}). */
    static final class ConflictingKeysException extends RuntimeException {
        ConflictingKeysException(String message) {
            super(message);
        }
    }

    private AttributeTree() {
    }

    static ObjectNode unflatten(List<Attribute> attributes) {
        ObjectNode root = NODES.objectNode();
        for (Attribute attribute : attributes) {
            put(root, attribute.key(), attribute.value());
        }
        return (ObjectNode) listsFromIndexedObjects(root);
    }

    /** The value at a dotted path, or null. */
    static JsonNode get(JsonNode tree, String path) {
        JsonNode node = tree;
        for (String segment : path.split("\\.", -1)) {
            if (node == null) {
                return null;
            }
            if (node.isObject()) {
                node = node.get(segment);
            } else if (node.isArray() && isIndex(segment)) {
                node = node.get(Integer.parseInt(segment));
            } else {
                return null;
            }
        }
        return node == null || node.isNull() ? null : node;
    }

    private static void put(ObjectNode root, String key, JsonNode value) {
        String[] segments = key.split("\\.", -1);
        ObjectNode parent = root;
        for (int i = 0; i < segments.length - 1; i++) {
            JsonNode child = parent.get(segments[i]);
            if (child == null) {
                parent = parent.putObject(segments[i]);
            } else if (child instanceof ObjectNode nested) {
                parent = nested;
            } else {
                throw conflict(key);
            }
        }
        String leaf = segments[segments.length - 1];
        if (parent.get(leaf) instanceof ObjectNode && !(value instanceof ObjectNode)) {
            throw conflict(key);
        }
        parent.set(leaf, value);
    }

    private static ConflictingKeysException conflict(String key) {
        return new ConflictingKeysException("attribute key '" + key + "' conflicts with another key when nested");
    }

    private static JsonNode listsFromIndexedObjects(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                field.setValue(listsFromIndexedObjects(field.getValue()));
            }
            return isIndexed(object) ? asList(object) : object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, listsFromIndexedObjects(array.get(i)));
            }
        }
        return node;
    }

    private static boolean isIndexed(ObjectNode object) {
        if (object.isEmpty()) {
            return false;
        }
        for (int i = 0; i < object.size(); i++) {
            if (!object.has(Integer.toString(i))) {
                return false;
            }
        }
        return true;
    }

    private static ArrayNode asList(ObjectNode object) {
        ArrayNode list = NODES.arrayNode(object.size());
        for (int i = 0; i < object.size(); i++) {
            list.add(object.get(Integer.toString(i)));
        }
        return list;
    }

    private static boolean isIndex(String segment) {
        if (segment.isEmpty() || segment.length() > 9) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            if (!Character.isDigit(segment.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
