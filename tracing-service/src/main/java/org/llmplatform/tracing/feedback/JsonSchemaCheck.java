package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The JSON Schema keywords an AnnotationSpec's {@code field_schema} uses (type, enum, const, numeric
 * and length bounds, pattern, properties, required, additionalProperties, items, item counts);
 * answers the first problem found, or empty when the value fits.
 */
final class JsonSchemaCheck {

    static Optional<String> problem(JsonNode schema, JsonNode value, String at) {
        if (schema == null || !schema.isObject()) {
            return Optional.empty();
        }
        JsonNode type = schema.get("type");
        if (type != null && !typeMatches(type, value)) {
            return Optional.of(at + " should be of type " + (type.isArray() ? type.toString() : type.asText()));
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && allowed.isArray() && !contains(allowed, value)) {
            return Optional.of(at + " should be one of " + allowed);
        }
        JsonNode constant = schema.get("const");
        if (constant != null && !sameValue(constant, value)) {
            return Optional.of(at + " should be " + constant);
        }
        if (value.isNumber()) {
            double number = value.doubleValue();
            if (bound(schema, "minimum") != null && number < bound(schema, "minimum")) {
                return Optional.of(at + " should be at least " + schema.get("minimum"));
            }
            if (bound(schema, "maximum") != null && number > bound(schema, "maximum")) {
                return Optional.of(at + " should be at most " + schema.get("maximum"));
            }
            if (bound(schema, "exclusiveMinimum") != null && number <= bound(schema, "exclusiveMinimum")) {
                return Optional.of(at + " should be greater than " + schema.get("exclusiveMinimum"));
            }
            if (bound(schema, "exclusiveMaximum") != null && number >= bound(schema, "exclusiveMaximum")) {
                return Optional.of(at + " should be less than " + schema.get("exclusiveMaximum"));
            }
        }
        if (value.isTextual()) {
            int length = value.textValue().codePointCount(0, value.textValue().length());
            if (bound(schema, "minLength") != null && length < bound(schema, "minLength")) {
                return Optional.of(at + " should have at least " + schema.get("minLength") + " characters");
            }
            if (bound(schema, "maxLength") != null && length > bound(schema, "maxLength")) {
                return Optional.of(at + " should have at most " + schema.get("maxLength") + " characters");
            }
            JsonNode pattern = schema.get("pattern");
            if (pattern != null && pattern.isTextual() && !matches(pattern.textValue(), value.textValue())) {
                return Optional.of(at + " should match " + pattern.textValue());
            }
        }
        if (value.isArray()) {
            if (bound(schema, "minItems") != null && value.size() < bound(schema, "minItems")) {
                return Optional.of(at + " should have at least " + schema.get("minItems") + " items");
            }
            if (bound(schema, "maxItems") != null && value.size() > bound(schema, "maxItems")) {
                return Optional.of(at + " should have at most " + schema.get("maxItems") + " items");
            }
            for (int i = 0; i < value.size(); i++) {
                Optional<String> item = problem(schema.get("items"), value.get(i), at + "[" + i + "]");
                if (item.isPresent()) {
                    return item;
                }
            }
        }
        if (value.isObject()) {
            return objectProblem(schema, value, at);
        }
        return Optional.empty();
    }

    private static Optional<String> objectProblem(JsonNode schema, JsonNode value, String at) {
        JsonNode required = schema.get("required");
        if (required != null && required.isArray()) {
            for (JsonNode name : required) {
                if (!value.has(name.asText())) {
                    return Optional.of(at + " is missing the required property '" + name.asText() + "'");
                }
            }
        }
        JsonNode properties = schema.path("properties");
        boolean closed = schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").booleanValue();
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (properties.has(field.getKey())) {
                Optional<String> inner = problem(properties.get(field.getKey()), field.getValue(), at + "." + field.getKey());
                if (inner.isPresent()) {
                    return inner;
                }
            } else if (closed) {
                return Optional.of(at + " does not allow the property '" + field.getKey() + "'");
            }
        }
        return Optional.empty();
    }

    private static boolean typeMatches(JsonNode type, JsonNode value) {
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (typeMatches(one, value)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber() || value.isNumber() && value.doubleValue() == Math.rint(value.doubleValue());
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "null" -> value.isNull();
            default -> true;
        };
    }

    private static boolean contains(JsonNode allowed, JsonNode value) {
        for (JsonNode candidate : allowed) {
            if (sameValue(candidate, value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static Double bound(JsonNode schema, String keyword) {
        JsonNode bound = schema.get(keyword);
        return bound != null && bound.isNumber() ? bound.doubleValue() : null;
    }

    private static boolean matches(String pattern, String text) {
        try {
            return Pattern.compile(pattern).matcher(text).find();
        } catch (PatternSyntaxException e) {
            return true;
        }
    }

    private JsonSchemaCheck() {
    }
}
