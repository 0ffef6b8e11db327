package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
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
 * The OTLP trace messages in protobuf wire format, through the generated classes of
 * {@code opentelemetry-proto}. Proto3 strings cannot tell absent from empty: an empty trace state, schema
 * URL, scope name or version, or status message reads as absent (null), as the exporters never write them.
 */
public final class OtlpProtobuf {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();

    private OtlpProtobuf() {
    }

    public static ExportRequest read(byte[] body) {
        ExportTraceServiceRequest request;
        try {
            request = ExportTraceServiceRequest.parseFrom(body);
        } catch (InvalidProtocolBufferException malformed) {
            throw new MalformedOtlpException("Invalid OTLP protobuf body: " + malformed.getMessage());
        }
        return new ExportRequest(request.getResourceSpansList().stream().map(OtlpProtobuf::resourceSpans).toList());
    }

    /** {@code ExportTraceServiceResponse}: empty on full success, else its {@code partial_success}. */
    public static byte[] response(long rejectedSpans, String errorMessage) {
        if (rejectedSpans == 0 && errorMessage == null) {
            return new byte[0];
        }
        ExportTracePartialSuccess.Builder partial = ExportTracePartialSuccess.newBuilder().setRejectedSpans(rejectedSpans);
        if (errorMessage != null) {
            partial.setErrorMessage(errorMessage);
        }
        return ExportTraceServiceResponse.newBuilder().setPartialSuccess(partial).build().toByteArray();
    }

    private static ResourceSpans resourceSpans(io.opentelemetry.proto.trace.v1.ResourceSpans resource) {
        return new ResourceSpans(attributes(resource.getResource().getAttributesList()), absentIfEmpty(resource.getSchemaUrl()),
                resource.getScopeSpansList().stream().map(OtlpProtobuf::scopeSpans).toList());
    }

    private static ScopeSpans scopeSpans(io.opentelemetry.proto.trace.v1.ScopeSpans scope) {
        return new ScopeSpans(absentIfEmpty(scope.getScope().getName()), absentIfEmpty(scope.getScope().getVersion()),
                scope.getSpansList().stream().map(OtlpProtobuf::span).toList());
    }

    private static Span span(io.opentelemetry.proto.trace.v1.Span span) {
        return new Span(hex(span.getTraceId()), hex(span.getSpanId()), absentIfEmpty(span.getTraceState()), hex(span.getParentSpanId()),
                span.getName(), span.getKindValue(), span.getStartTimeUnixNano(), span.getEndTimeUnixNano(),
                attributes(span.getAttributesList()),
                span.getEventsList().stream().map(event -> new Event(event.getTimeUnixNano(), event.getName(),
                        attributes(event.getAttributesList()))).toList(),
                span.getLinksList().stream().map(link -> new Link(hex(link.getTraceId()), hex(link.getSpanId()),
                        absentIfEmpty(link.getTraceState()), attributes(link.getAttributesList()))).toList(),
                span.getStatus().getCodeValue(), absentIfEmpty(span.getStatus().getMessage()));
    }

    private static List<Attribute> attributes(List<KeyValue> keyValues) {
        return keyValues.stream().map(keyValue -> new Attribute(keyValue.getKey(), value(keyValue.getValue()))).toList();
    }

    private static JsonNode value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> NODES.textNode(value.getStringValue());
            case BOOL_VALUE -> NODES.booleanNode(value.getBoolValue());
            case INT_VALUE -> NODES.numberNode(value.getIntValue());
            case DOUBLE_VALUE -> NODES.numberNode(value.getDoubleValue());
            case ARRAY_VALUE -> {
                ArrayNode values = NODES.arrayNode();
                value.getArrayValue().getValuesList().forEach(item -> values.add(value(item)));
                yield values;
            }
            case KVLIST_VALUE -> {
                ObjectNode values = NODES.objectNode();
                value.getKvlistValue().getValuesList().forEach(entry -> values.set(entry.getKey(), value(entry.getValue())));
                yield values;
            }
            case BYTES_VALUE -> NODES.textNode(Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray()));
            case VALUE_NOT_SET -> NODES.nullNode();
        };
    }

    private static String hex(ByteString bytes) {
        return HEX.formatHex(bytes.toByteArray());
    }

    private static String absentIfEmpty(String text) {
        return text.isEmpty() ? null : text;
    }
}
