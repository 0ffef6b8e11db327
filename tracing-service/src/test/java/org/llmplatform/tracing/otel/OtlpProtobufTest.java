package org.llmplatform.tracing.otel;

import static io.opentelemetry.api.common.AttributeKey.doubleKey;
import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringArrayKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.llmplatform.tracing.otel.OtlpModel.ExportRequest;

/** The hand-written OTLP decoders against the bytes the OpenTelemetry exporter's own marshaler writes. */
class OtlpProtobufTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<SpanData> spans = RecordedSpans.record(Attributes.of(stringKey("service.name"), "svc"), tracer -> {
        Span span = tracer.spanBuilder("decoded").setAttribute("text", "é")
                .setAttribute(longKey("count"), -42L)
                .setAttribute(doubleKey("ratio"), 0.5)
                .setAttribute(stringArrayKey("tags"), List.of("a", "b"))
                .startSpan();
        span.addEvent("checkpoint", Attributes.of(stringKey("stage"), "one"));
        span.setStatus(StatusCode.ERROR, "broke");
        span.end();
    });

    @Test
    void protobufAndJsonFromTheExporterDecodeToTheSameSpan() throws Exception {
        ExportRequest fromProtobuf = OtlpProtobuf.read(RecordedSpans.protobuf(spans));
        ExportRequest fromJson = OtlpJson.read(JSON.readTree(RecordedSpans.json(spans)));

        for (ExportRequest request : List.of(fromProtobuf, fromJson)) {
            OtlpModel.Span span = request.resourceSpans().get(0).scopeSpans().get(0).spans().get(0);
            SpanData expected = spans.get(0);
            assertEquals(expected.getTraceId(), span.traceId());
            assertEquals(expected.getSpanId(), span.spanId());
            assertEquals("decoded", span.name());
            assertEquals(expected.getStartEpochNanos(), span.startTimeUnixNano());
            assertEquals(expected.getEndEpochNanos(), span.endTimeUnixNano());
            assertEquals(OtlpModel.STATUS_ERROR, span.statusCode());
            assertEquals("broke", span.statusMessage());
            assertEquals(JSON.readTree("{\"text\": \"é\", \"count\": -42, \"ratio\": 0.5, \"tags\": [\"a\", \"b\"]}"),
                    JSON.readTree(SpanToCall.flat(span.attributes()).toString()));
            assertEquals("checkpoint", span.events().get(0).name());
            assertEquals("svc", SpanToCall.flat(request.resourceSpans().get(0).resourceAttributes()).get("service.name").asText());
        }
    }

    @Test
    void everyTruncationOfARealBodyFailsCleanlyOrDecodesAPrefix() {
        byte[] body = RecordedSpans.protobuf(spans);
        for (int length = 0; length < body.length; length++) {
            byte[] prefix = Arrays.copyOf(body, length);
            try {
                OtlpProtobuf.read(prefix);
            } catch (MalformedOtlpException expected) {
                // a cut inside a field is refused; a cut between fields is a valid shorter message
            }
        }
        assertThrows(MalformedOtlpException.class, () -> OtlpProtobuf.read(Arrays.copyOf(body, body.length - 1)));
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButMalformed() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            byte[] garbage = new byte[1 + random.nextInt(200)];
            random.nextBytes(garbage);
            try {
                OtlpProtobuf.read(garbage);
            } catch (MalformedOtlpException expected) {
                // refused with a reason
            }
        }
    }

    @Test
    void aPartialSuccessEncodesAsExportTraceServiceResponse() {
        assertEquals(0, OtlpProtobuf.response(0, null).length);
        byte[] response = OtlpProtobuf.response(300, "no");
        assertEquals(List.of(0x0A, 7, 0x08, 0xAC, 0x02, 0x12, 2, (int) 'n', (int) 'o'),
                Arrays.stream(toInts(response)).boxed().toList());
    }

    private static int[] toInts(byte[] bytes) {
        int[] ints = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            ints[i] = bytes[i] & 0xFF;
        }
        return ints;
    }
}
