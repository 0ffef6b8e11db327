package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.llmplatform.tracing.otel.OtlpModel.Attribute;
import org.llmplatform.tracing.otel.OtlpModel.Event;
import org.llmplatform.tracing.otel.OtlpModel.ExportRequest;
import org.llmplatform.tracing.otel.OtlpModel.Link;
import org.llmplatform.tracing.otel.OtlpModel.ResourceSpans;
import org.llmplatform.tracing.otel.OtlpModel.ScopeSpans;
import org.llmplatform.tracing.otel.OtlpModel.Span;

/**
 * OTLP JSON ({@code ExportTraceServiceRequest} in the protobuf JSON mapping): lowerCamelCase field
 * names (the proto's snake_case names are accepted too), hex ids, 64-bit integers as strings or
 * numbers, enums as numbers or names.
 */
public final class OtlpJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private OtlpJson() {
    }

    public static ExportRequest read(JsonNode body) {
        requireObject(body, "the body");
        return new ExportRequest(list(body, "resourceSpans", "resource_spans", OtlpJson::resourceSpans));
    }

    private static ResourceSpans resourceSpans(JsonNode node) {
        JsonNode resource = field(node, "resource", "resource");
        List<Attribute> attributes = resource == null ? List.of() : attributes(resource);
        return new ResourceSpans(attributes, text(node, "schemaUrl", "schema_url"),
                list(node, "scopeSpans", "scope_spans", OtlpJson::scopeSpans));
    }

    private static ScopeSpans scopeSpans(JsonNode node) {
        JsonNode scope = field(node, "scope", "scope");
        return new ScopeSpans(scope == null ? null : text(scope, "name", "name"),
                scope == null ? null : text(scope, "version", "version"),
                list(node, "spans", "spans", OtlpJson::span));
    }

    private static Span span(JsonNode node) {
        JsonNode status = field(node, "status", "status");
        return new Span(id(node, "traceId", "trace_id"), id(node, "spanId", "span_id"),
                text(node, "traceState", "trace_state"), id(node, "parentSpanId", "parent_span_id"),
                orEmpty(text(node, "name", "name")), enumValue(field(node, "kind", "kind"), "SPAN_KIND_", OtlpModel::kindName),
                unsigned(node, "startTimeUnixNano", "start_time_unix_nano"),
                unsigned(node, "endTimeUnixNano", "end_time_unix_nano"), attributes(node),
                list(node, "events", "events", OtlpJson::event), list(node, "links", "links", OtlpJson::link),
                status == null ? 0 : enumValue(field(status, "code", "code"), "STATUS_CODE_", OtlpJson::statusCodeName),
                status == null ? null : text(status, "message", "message"));
    }

    private static String statusCodeName(int code) {
        return switch (code) {
            case 1 -> "STATUS_CODE_OK";
            case OtlpModel.STATUS_ERROR -> "STATUS_CODE_ERROR";
            default -> "STATUS_CODE_UNSET";
        };
    }

    private static Event event(JsonNode node) {
        return new Event(unsigned(node, "timeUnixNano", "time_unix_nano"), orEmpty(text(node, "name", "name")),
                attributes(node));
    }

    private static Link link(JsonNode node) {
        return new Link(id(node, "traceId", "trace_id"), id(node, "spanId", "span_id"),
                text(node, "traceState", "trace_state"), attributes(node));
    }

    private static List<Attribute> attributes(JsonNode node) {
        return list(node, "attributes", "attributes", OtlpJson::keyValue);
    }

    private static Attribute keyValue(JsonNode node) {
        JsonNode value = field(node, "value", "value");
        return new Attribute(orEmpty(text(node, "key", "key")), value == null ? NODES.nullNode() : anyValue(value));
    }

    private static JsonNode anyValue(JsonNode node) {
        requireObject(node, "an attribute value");
        JsonNode value;
        if ((value = field(node, "stringValue", "string_value")) != null) {
            return NODES.textNode(value.asText());
        }
        if ((value = field(node, "boolValue", "bool_value")) != null) {
            return NODES.booleanNode(value.asBoolean());
        }
        if ((value = field(node, "intValue", "int_value")) != null) {
            return NODES.numberNode(integer(value, "intValue"));
        }
        if ((value = field(node, "doubleValue", "double_value")) != null) {
            return NODES.numberNode(doubleValue(value));
        }
        if ((value = field(node, "arrayValue", "array_value")) != null) {
            ArrayNode values = NODES.arrayNode();
            list(value, "values", "values", OtlpJson::anyValue).forEach(values::add);
            return values;
        }
        if ((value = field(node, "kvlistValue", "kvlist_value")) != null) {
            ObjectNode values = NODES.objectNode();
            list(value, "values", "values", OtlpJson::keyValue).forEach(entry -> values.set(entry.key(), entry.value()));
            return values;
        }
        if ((value = field(node, "bytesValue", "bytes_value")) != null) {
            return NODES.textNode(value.asText());
        }
        return NODES.nullNode();
    }

    private static <T> List<T> list(JsonNode node, String name, String protoName, Function<JsonNode, T> reader) {
        JsonNode value = field(node, name, protoName);
        if (value == null) {
            return List.of();
        }
        if (!value.isArray()) {
            throw malformed("'" + name + "' must be an array");
        }
        List<T> items = new ArrayList<>(value.size());
        for (JsonNode item : value) {
            requireObject(item, "an item of '" + name + "'");
            items.add(reader.apply(item));
        }
        return items;
    }

    private static JsonNode field(JsonNode node, String name, String protoName) {
        JsonNode value = node.get(name);
        if (value == null) {
            value = node.get(protoName);
        }
        return value == null || value.isNull() ? null : value;
    }

    private static String text(JsonNode node, String name, String protoName) {
        JsonNode value = field(node, name, protoName);
        if (value != null && !value.isTextual()) {
            throw malformed("'" + name + "' must be a string");
        }
        return value == null ? null : value.asText();
    }

    private static String id(JsonNode node, String name, String protoName) {
        String value = text(node, name, protoName);
        return value == null ? "" : value.toLowerCase(Locale.ROOT);
    }

    private static long unsigned(JsonNode node, String name, String protoName) {
        JsonNode value = field(node, name, protoName);
        return value == null ? 0 : integer(value, name);
    }

    private static long integer(JsonNode value, String name) {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isTextual()) {
            String text = value.asText();
            try {
                return text.startsWith("-") ? Long.parseLong(text) : Long.parseUnsignedLong(text);
            } catch (NumberFormatException notANumber) {
                throw malformed("'" + name + "' must be a 64-bit integer, not \"" + text + "\"");
            }
        }
        throw malformed("'" + name + "' must be a 64-bit integer");
    }

    private static double doubleValue(JsonNode value) {
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            switch (value.asText()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    try {
                        return Double.parseDouble(value.asText());
                    } catch (NumberFormatException notANumber) {
                        throw malformed("'doubleValue' must be a number");
                    }
            }
        }
        throw malformed("'doubleValue' must be a number");
    }

    private static int enumValue(JsonNode value, String prefix, IntFunction<String> names) {
        if (value == null) {
            return 0;
        }
        if (value.isIntegralNumber()) {
            return value.intValue();
        }
        if (value.isTextual()) {
            for (int code = 0; code <= 5; code++) {
                String known = names.apply(code);
                if (known.equals(value.asText()) || known.equals(prefix + value.asText())) {
                    return code;
                }
            }
        }
        throw malformed("unknown enum value " + value);
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private static void requireObject(JsonNode node, String what) {
        if (node == null || !node.isObject()) {
            throw malformed(what + " must be a JSON object");
        }
    }

    private static MalformedOtlpException malformed(String problem) {
        return new MalformedOtlpException("Invalid OTLP JSON body: " + problem);
    }
}
