package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import org.llmplatform.support.error.ApiException;

/** The kind and the base/leaf class of a published value (docs/tracing-service.md#object-kinds-and-classes). */
final class ObjectClasses {

    /** The classes of the reference's built-in registry that {@code builtin_object_class} may name. */
    static final Set<String> BUILTIN = Set.of("Leaderboard", "SavedView", "Provider", "ProviderModel", "AnnotationSpec",
            "LLMStructuredCompletionModel", "ActionSpec", "TestOnlyExample", "TestOnlyNestedBaseObject");

    /** The value that is stored and hashed, and its classes. */
    record Classified(JsonNode value, String kind, String baseObjectClass, String leafObjectClass) {
    }

    static Classified classify(JsonNode value, String builtinObjectClass) {
        JsonNode processed = value;
        String base = null;
        String leaf = null;
        if (value.isObject() && hasObjectBases(value)) {
            JsonNode bases = value.get("_bases");
            leaf = textOrNull(value.get("_class_name"));
            base = bases.size() > 2 ? textOrNull(bases.get(bases.size() - 3)) : leaf;
            if (builtinObjectClass != null && !builtinObjectClass.equals(leaf)) {
                throw ApiException.badRequest("builtin_object_class '" + builtinObjectClass
                        + "' does not match the value's class '" + leaf + "'");
            }
        } else if (builtinObjectClass != null) {
            if (!BUILTIN.contains(builtinObjectClass)) {
                throw ApiException.badRequest("Unknown object class: " + builtinObjectClass);
            }
            if (!value.isObject()) {
                throw ApiException.badRequest("A " + builtinObjectClass + " must be a JSON object");
            }
            processed = asBuiltin((ObjectNode) value, builtinObjectClass);
            base = builtinObjectClass;
            leaf = builtinObjectClass;
        }
        return new Classified(processed, isOp(processed) ? "op" : "object", base, leaf);
    }

    /** An op is {@code {"_type": ..., "weave_type": {"type": "Op"}, ...}}; everything else is an object. */
    static boolean isOp(JsonNode value) {
        return value.isObject() && value.has("_type") && value.path("weave_type").path("type").asText("").equals("Op");
    }

    private static boolean hasObjectBases(JsonNode value) {
        JsonNode bases = value.get("_bases");
        if (bases == null || !bases.isArray() || bases.size() < 2) {
            return false;
        }
        String last = bases.get(bases.size() - 1).asText("");
        String secondToLast = bases.get(bases.size() - 2).asText("");
        return last.equals("BaseModel") && (secondToLast.equals("Object") || secondToLast.equals("BaseObject"));
    }

    private static ObjectNode asBuiltin(ObjectNode value, String className) {
        ObjectNode processed = value.deepCopy();
        processed.put("_type", className);
        processed.put("_class_name", className);
        processed.set("_bases", JsonNodeFactory.instance.arrayNode().add("BaseObject").add("BaseModel"));
        processed.putIfAbsent("name", JsonNodeFactory.instance.nullNode());
        processed.putIfAbsent("description", JsonNodeFactory.instance.nullNode());
        if (className.equals("AnnotationSpec")) {
            processed.putIfAbsent("field_schema", JsonNodeFactory.instance.objectNode());
            processed.putIfAbsent("unique_among_creators", JsonNodeFactory.instance.booleanNode(false));
            processed.putIfAbsent("op_scope", JsonNodeFactory.instance.nullNode());
        }
        return processed;
    }

    private static String textOrNull(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.textValue();
    }

    private ObjectClasses() {
    }
}
