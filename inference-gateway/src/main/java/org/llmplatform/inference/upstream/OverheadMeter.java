package org.llmplatform.inference.upstream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code gateway.overhead.duration} (Prometheus {@code gateway_overhead_duration_seconds}): per request
 * to an upstream, the time spent in the gateway itself, reported apart from end-to-end latency as
 * LiteLLM does: before the upstream was asked, plus turning its answer (every event of a stream) into ours.
 */
@Singleton
public class OverheadMeter {

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public OverheadMeter(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String model, boolean stream, long nanos) {
        timers.computeIfAbsent(model + (stream ? "\nstream" : "\njson"), ignored -> Timer.builder("gateway.overhead.duration")
                        .description("Time a request spent in the gateway itself, upstream time excluded")
                        .tag("model", model)
                        .tag("stream", Boolean.toString(stream))
                        .publishPercentileHistogram()
                        .register(registry))
                .record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }
}
