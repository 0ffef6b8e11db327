package org.llmplatform.tracing.otel;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Spans made by the real OpenTelemetry SDK, kept in memory, and encoded by the OTLP exporter's own
 * marshaler into the exact protobuf or JSON bytes an exporter sends.
 */
public final class RecordedSpans implements SpanExporter {

    private final List<SpanData> spans = new ArrayList<>();

    /** Runs {@code work} with a tracer of a provider whose resource has {@code resource}; returns its spans. */
    public static List<SpanData> record(Attributes resource, Consumer<Tracer> work) {
        RecordedSpans recorded = new RecordedSpans();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource)))
                .addSpanProcessor(SimpleSpanProcessor.create(recorded)).build();
        try {
            work.accept(provider.get("otel-ingest-test"));
            provider.forceFlush().join(10, TimeUnit.SECONDS);
        } finally {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }
        synchronized (recorded.spans) {
            return List.copyOf(recorded.spans);
        }
    }

    public static byte[] protobuf(Collection<SpanData> spans) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceRequestMarshaler.create(spans).writeBinaryTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static byte[] json(Collection<SpanData> spans) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceRequestMarshaler.create(spans).writeJsonTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        synchronized (spans) {
            spans.addAll(batch);
        }
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
