package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An {@code ExportTraceServiceRequest} as read from protobuf or OTLP JSON. Ids are lowercase hex
 * (as the body gave them: checked later, per span); attribute values are JSON (strings, booleans,
 * 64-bit integers, doubles, arrays, key-value lists as objects, bytes as base64 strings).
 */
public final class OtlpModel {

    private OtlpModel() {
    }

    public record ExportRequest(List<ResourceSpans> resourceSpans) {
    }

    public record ResourceSpans(List<Attribute> resourceAttributes, String schemaUrl, List<ScopeSpans> scopeSpans) {
    }

    public record ScopeSpans(String scopeName, String scopeVersion, List<Span> spans) {
    }

    public record Span(String traceId, String spanId, String traceState, String parentSpanId, String name, int kind,
            long startTimeUnixNano, long endTimeUnixNano, List<Attribute> attributes, List<Event> events,
            List<Link> links, int statusCode, String statusMessage) {
    }

    public record Event(long timeUnixNano, String name, List<Attribute> attributes) {
    }

    public record Link(String traceId, String spanId, String traceState, List<Attribute> attributes) {
    }

    public record Attribute(String key, JsonNode value) {
    }

    static final int STATUS_ERROR = 2;

    static String statusName(int code) {
        return switch (code) {
            case 1 -> "OK";
            case STATUS_ERROR -> "ERROR";
            default -> "UNSET";
        };
    }

    static String kindName(int kind) {
        return switch (kind) {
            case 1 -> "SPAN_KIND_INTERNAL";
            case 2 -> "SPAN_KIND_SERVER";
            case 3 -> "SPAN_KIND_CLIENT";
            case 4 -> "SPAN_KIND_PRODUCER";
            case 5 -> "SPAN_KIND_CONSUMER";
            default -> "SPAN_KIND_UNSPECIFIED";
        };
    }
}
