package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.llmplatform.tracing.otel.OtlpModel.Attribute;
import org.llmplatform.tracing.otel.OtlpModel.Event;
import org.llmplatform.tracing.otel.OtlpModel.ExportRequest;
import org.llmplatform.tracing.otel.OtlpModel.Link;
import org.llmplatform.tracing.otel.OtlpModel.ResourceSpans;
import org.llmplatform.tracing.otel.OtlpModel.ScopeSpans;
import org.llmplatform.tracing.otel.OtlpModel.Span;

/**
 * The OTLP trace messages ({@code opentelemetry/proto/collector/trace/v1} and {@code trace/v1}) in
 * protobuf wire format, read by field number with no generated code; unknown fields are skipped as
 * protobuf requires.
 */
public final class OtlpProtobuf {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();

    private OtlpProtobuf() {
    }

    public static ExportRequest read(byte[] body) {
        ProtoReader in = new ProtoReader(body);
        List<ResourceSpans> resourceSpans = new ArrayList<>();
        while (in.hasMore()) {
            if (in.nextField() == 1) {
                resourceSpans.add(resourceSpans(in.message(1)));
            } else {
                in.skip();
            }
        }
        return new ExportRequest(resourceSpans);
    }

    /** {@code ExportTraceServiceResponse}: empty on full success, else its {@code partial_success}. */
    public static byte[] response(long rejectedSpans, String errorMessage) {
        if (rejectedSpans == 0 && errorMessage == null) {
            return new byte[0];
        }
        ByteArrayOutputStream partial = new ByteArrayOutputStream();
        writeVarint(partial, (1 << 3) | ProtoReader.VARINT);
        writeVarint(partial, rejectedSpans);
        if (errorMessage != null) {
            byte[] message = errorMessage.getBytes(StandardCharsets.UTF_8);
            writeVarint(partial, (2 << 3) | ProtoReader.LENGTH_DELIMITED);
            writeVarint(partial, message.length);
            partial.writeBytes(message);
        }
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        writeVarint(response, (1 << 3) | ProtoReader.LENGTH_DELIMITED);
        writeVarint(response, partial.size());
        response.writeBytes(partial.toByteArray());
        return response.toByteArray();
    }

    private static ResourceSpans resourceSpans(ProtoReader in) {
        List<Attribute> resource = new ArrayList<>();
        String schemaUrl = null;
        List<ScopeSpans> scopes = new ArrayList<>();
        while (in.hasMore()) {
            switch (in.nextField()) {
                case 1 -> resource = resource(in.message(1));
                case 2 -> scopes.add(scopeSpans(in.message(2)));
                case 3 -> schemaUrl = in.string(3);
                default -> in.skip();
            }
        }
        return new ResourceSpans(resource, schemaUrl, scopes);
    }

    private static List<Attribute> resource(ProtoReader in) {
        List<Attribute> attributes = new ArrayList<>();
        while (in.hasMore()) {
            if (in.nextField() == 1) {
                attributes.add(keyValue(in.message(1)));
            } else {
                in.skip();
            }
        }
        return attributes;
    }

    private static ScopeSpans scopeSpans(ProtoReader in) {
        String name = null;
        String version = null;
        List<Span> spans = new ArrayList<>();
        while (in.hasMore()) {
            switch (in.nextField()) {
                case 1 -> {
                    ProtoReader scope = in.message(1);
                    while (scope.hasMore()) {
                        switch (scope.nextField()) {
                            case 1 -> name = scope.string(1);
                            case 2 -> version = scope.string(2);
                            default -> scope.skip();
                        }
                    }
                }
                case 2 -> spans.add(span(in.message(2)));
                default -> in.skip();
            }
        }
        return new ScopeSpans(name, version, spans);
    }

    private static Span span(ProtoReader in) {
        String traceId = "";
        String spanId = "";
        String traceState = null;
        String parentSpanId = "";
        String name = "";
        int kind = 0;
        long start = 0;
        long end = 0;
        List<Attribute> attributes = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        List<Link> links = new ArrayList<>();
        int statusCode = 0;
        String statusMessage = null;
        while (in.hasMore()) {
            int field = in.nextField();
            switch (field) {
                case 1 -> traceId = HEX.formatHex(in.bytes(field));
                case 2 -> spanId = HEX.formatHex(in.bytes(field));
                case 3 -> traceState = in.string(field);
                case 4 -> parentSpanId = HEX.formatHex(in.bytes(field));
                case 5 -> name = in.string(field);
                case 6 -> kind = (int) in.varint(field);
                case 7 -> start = in.fixed64(field);
                case 8 -> end = in.fixed64(field);
                case 9 -> attributes.add(keyValue(in.message(field)));
                case 11 -> events.add(event(in.message(field)));
                case 13 -> links.add(link(in.message(field)));
                case 15 -> {
                    ProtoReader status = in.message(field);
                    while (status.hasMore()) {
                        switch (status.nextField()) {
                            case 2 -> statusMessage = status.string(2);
                            case 3 -> statusCode = (int) status.varint(3);
                            default -> status.skip();
                        }
                    }
                }
                default -> in.skip();
            }
        }
        return new Span(traceId, spanId, traceState, parentSpanId, name, kind, start, end, attributes, events, links,
                statusCode, statusMessage);
    }

    private static Event event(ProtoReader in) {
        long time = 0;
        String name = "";
        List<Attribute> attributes = new ArrayList<>();
        while (in.hasMore()) {
            switch (in.nextField()) {
                case 1 -> time = in.fixed64(1);
                case 2 -> name = in.string(2);
                case 3 -> attributes.add(keyValue(in.message(3)));
                default -> in.skip();
            }
        }
        return new Event(time, name, attributes);
    }

    private static Link link(ProtoReader in) {
        String traceId = "";
        String spanId = "";
        String traceState = null;
        List<Attribute> attributes = new ArrayList<>();
        while (in.hasMore()) {
            switch (in.nextField()) {
                case 1 -> traceId = HEX.formatHex(in.bytes(1));
                case 2 -> spanId = HEX.formatHex(in.bytes(2));
                case 3 -> traceState = in.string(3);
                case 4 -> attributes.add(keyValue(in.message(4)));
                default -> in.skip();
            }
        }
        return new Link(traceId, spanId, traceState, attributes);
    }

    private static Attribute keyValue(ProtoReader in) {
        String key = "";
        JsonNode value = NODES.nullNode();
        while (in.hasMore()) {
            switch (in.nextField()) {
                case 1 -> key = in.string(1);
                case 2 -> value = anyValue(in.message(2));
                default -> in.skip();
            }
        }
        return new Attribute(key, value);
    }

    private static JsonNode anyValue(ProtoReader in) {
        JsonNode value = NODES.nullNode();
        while (in.hasMore()) {
            int field = in.nextField();
            value = switch (field) {
                case 1 -> NODES.textNode(in.string(field));
                case 2 -> NODES.booleanNode(in.varint(field) != 0);
                case 3 -> NODES.numberNode(in.varint(field));
                case 4 -> NODES.numberNode(in.doubleValue(field));
                case 5 -> arrayValue(in.message(field));
                case 6 -> keyValueList(in.message(field));
                case 7 -> NODES.textNode(Base64.getEncoder().encodeToString(in.bytes(field)));
                default -> {
                    in.skip();
                    yield value;
                }
            };
        }
        return value;
    }

    private static ArrayNode arrayValue(ProtoReader in) {
        ArrayNode values = NODES.arrayNode();
        while (in.hasMore()) {
            if (in.nextField() == 1) {
                values.add(anyValue(in.message(1)));
            } else {
                in.skip();
            }
        }
        return values;
    }

    private static ObjectNode keyValueList(ProtoReader in) {
        ObjectNode values = NODES.objectNode();
        while (in.hasMore()) {
            if (in.nextField() == 1) {
                Attribute entry = keyValue(in.message(1));
                values.set(entry.key(), entry.value());
            } else {
                in.skip();
            }
        }
        return values;
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
