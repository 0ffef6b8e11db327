package org.llmplatform.inference.bench;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The gateway's added latency and throughput against a fast vLLM server's stand-in ({@link BenchUpstream},
 * {@link VllmStandIn}, its own JVM): the same non-streamed and streamed requests sent directly to the
 * upstream and through the gateway, in the same run. Latency is measured open-loop (requests leave as
 * Poisson arrivals at {@code bench.rate} a second whatever the answers do, the same schedule direct and
 * through the gateway, and each one is timed from its scheduled send time, so queueing is not hidden;
 * random arrivals also keep the schedule from locking onto the stand-in's step clock), against the
 * stand-in and against an upstream that answers at once. Throughput is measured closed-loop with more
 * requests in flight than the stand-in runs, so called directly it is the bottleneck; the same against
 * the upstream that answers at once is the gateway's CPU ceiling on this machine, not the target. Direct and gateway measurements alternate in slices of
 * {@code bench.slice} seconds, so both see the same machine (this one is shared and noisy), and each
 * slice gets a fresh client, so no connection pool grown by one slice slows the next.
 * Run with {@code bench/run.sh}; not part of the test suite.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(value = BenchUpstream.class, restrictToAnnotatedClass = true)
@EnabledIfSystemProperty(named = "bench", matches = "true")
class GatewayOverheadBenchmark {

    private static final int RATE = Integer.getInteger("bench.rate", 1000);
    private static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup", 10);
    private static final int SATURATION_SECONDS = Integer.getInteger("bench.saturation.seconds", 10);
    /** More requests in flight than the upstream runs at once, so called directly the upstream is the bottleneck. */
    private static final int SATURATION_CONCURRENCY = Integer.getInteger("bench.saturation.concurrency",
            2 * BenchUpstream.MAX_NUM_SEQS);
    /** Against the upstream that answers at once a few connections saturate the gateway's CPU. */
    private static final int CEILING_CONCURRENCY = Integer.getInteger("bench.ceiling.concurrency", 64);
    private static final int SLICE_SECONDS = Integer.getInteger("bench.slice", 5);
    /** Enough connections for an open loop to ride out a stall of this many requests without queueing. */
    private static final int OPEN_LOOP_CONNECTIONS = 256;
    private static final String JSON = "{\"model\":\"" + BenchUpstream.MODEL + "\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Say hello to the benchmark\"}],\"max_tokens\":16,\"temperature\":0.7}";
    private static final String STREAM = streamed(JSON);
    private static final String CANNED_JSON = JSON.replace(BenchUpstream.MODEL, BenchUpstream.CANNED_MODEL);
    private static final String CANNED_STREAM = streamed(CANNED_JSON);

    @TestHTTPResource("/v1/chat/completions")
    URL gateway;

    private Vertx vertx;
    /** Every request is sent and answered on this one event loop. */
    private Context loop;
    private String key;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        loop = vertx.getOrCreateContext();
        key = TestIdentities.userWithKey(TestIdentities.unique("bench"));
    }

    @AfterEach
    void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }

    @Test
    void gatewayOverhead() throws Exception {
        String direct = System.getProperty(BenchUpstream.URL_PROPERTY) + "/chat/completions";
        String through = gateway.toString();
        for (String body : new String[] {JSON, STREAM}) {
            openLoop(direct, body, new Latencies(RATE * WARMUP_SECONDS), 0, WARMUP_SECONDS);
            openLoop(through, body, new Latencies(RATE * WARMUP_SECONDS), 0, WARMUP_SECONDS);
        }
        System.out.printf("BENCH upstream: vLLM stand-in in its own JVM, continuous batching of at most %d sequences, "
                + "%.1f ms per engine step, one token per sequence per step (prefill samples the first); answers of "
                + "%d tokens (non-streamed) and %d (streamed)%n", BenchUpstream.MAX_NUM_SEQS,
                BenchUpstream.STEP_MICROS / 1000.0, VllmStandIn.NON_STREAMED_TOKENS, VllmStandIn.STREAMED_TOKENS);
        String cannedDirect = System.getProperty(BenchUpstream.CANNED_URL_PROPERTY) + "/chat/completions";
        latency(direct, through, JSON, STREAM, "vLLM stand-in");
        latency(cannedDirect, through, CANNED_JSON, CANNED_STREAM,
                "upstream answering at once (the gateway's own time, not the target)");
        for (String body : new String[] {JSON, STREAM}) {
            String kind = body == JSON ? "non-streamed" : "streamed";
            Throughput[] measured = saturation(direct, through, body, SATURATION_CONCURRENCY);
            System.out.printf("BENCH %s saturation (%d in flight, upstream runs %d, %d s): direct %.0f req/s, "
                            + "gateway %.0f req/s, ratio %.2f (target >= 0.8); load average %s%n", kind,
                    SATURATION_CONCURRENCY, BenchUpstream.MAX_NUM_SEQS, SATURATION_SECONDS, measured[0].perSecond(),
                    measured[1].perSecond(), measured[1].perSecond() / measured[0].perSecond(), loadAverage());
            cpuPerRequest(kind, measured);
        }
        for (String body : new String[] {CANNED_JSON, CANNED_STREAM}) {
            String kind = body == CANNED_JSON ? "non-streamed" : "streamed";
            Throughput[] measured = saturation(cannedDirect, through, body, CEILING_CONCURRENCY);
            System.out.printf("BENCH %s gateway CPU ceiling (not the target: an upstream that answers at once, "
                            + "%d in flight, %d s): direct %.0f req/s, gateway %.0f req/s; load average %s%n", kind,
                    CEILING_CONCURRENCY, SATURATION_SECONDS, measured[0].perSecond(), measured[1].perSecond(),
                    loadAverage());
            cpuPerRequest(kind + " (upstream answering at once)", measured);
        }
    }

    private void latency(String direct, String through, String json, String stream, String upstream)
            throws InterruptedException {
        for (String body : new String[] {json, stream}) {
            String kind = (body == json ? "non-streamed" : "streamed") + " against the " + upstream;
            Latencies baseline = new Latencies(RATE * SECONDS);
            Latencies ours = new Latencies(RATE * SECONDS);
            for (int done = 0; done < SECONDS; done += SLICE_SECONDS) {
                int slice = Math.min(SLICE_SECONDS, SECONDS - done);
                openLoop(direct, body, baseline, RATE * done, slice);
                openLoop(through, body, ours, RATE * done, slice);
            }
            System.out.printf("BENCH %s: latency at %d req/s for %d s: direct p50 %.3f ms p99 %.3f ms (%d failed) | "
                            + "gateway p50 %.3f ms p99 %.3f ms (%d failed); load average %s%n", kind, RATE, SECONDS,
                    baseline.percentile(50), baseline.percentile(99), baseline.failures,
                    ours.percentile(50), ours.percentile(99), ours.failures, loadAverage());
            System.out.printf("BENCH %s: added latency p50 %.3f ms (target <= 1), p99 %.3f ms (target <= 5); "
                            + "gateway-reported overhead (%s) p50 %.3f ms p99 %.3f ms%n", kind,
                    ours.percentile(50) - baseline.percentile(50), ours.percentile(99) - baseline.percentile(99),
                    GatewayOverhead.HEADER, ours.reportedPercentile(50), ours.reportedPercentile(99));
        }
    }

    /**
     * CPU time of the benchmark's JVM per answer, direct and through the gateway: their difference is the
     * gateway's own CPU per request (plus its broker's share), a figure other load on the machine hardly moves.
     */
    private static void cpuPerRequest(String kind, Throughput[] measured) {
        System.out.printf("BENCH %s CPU per request in the benchmark JVM: direct %.1f us, through the gateway %.1f us, "
                        + "gateway's own ~%.1f us%n", kind, measured[0].cpuMicrosPerAnswer(),
                measured[1].cpuMicrosPerAnswer(), measured[1].cpuMicrosPerAnswer() - measured[0].cpuMicrosPerAnswer());
    }

    private static String streamed(String json) {
        return json.substring(0, json.length() - 1) + ",\"stream\":true}";
    }

    /** Direct, then through the gateway, closed-loop, alternating in slices: {direct, gateway}. */
    private Throughput[] saturation(String direct, String through, String body, int concurrency)
            throws InterruptedException {
        Throughput baseline = new Throughput();
        Throughput ours = new Throughput();
        for (int done = 0; done < SATURATION_SECONDS; done += SLICE_SECONDS) {
            int slice = Math.min(SLICE_SECONDS, SATURATION_SECONDS - done);
            saturate(direct, body, baseline, slice, concurrency);
            saturate(through, body, ours, slice, concurrency);
        }
        return new Throughput[] {baseline, ours};
    }

    /**
     * Sends {@code RATE} requests a second for {@code seconds} as Poisson arrivals (seeded by
     * {@code first}, so direct and gateway slices get the same schedule), timing each from its
     * scheduled start into {@code latencies} from index {@code first}.
     */
    private void openLoop(String url, String body, Latencies latencies, int first, int seconds)
            throws InterruptedException {
        int total = RATE * seconds;
        double period = TimeUnit.SECONDS.toNanos(1) / (double) RATE;
        Random arrivals = new Random(first);
        HttpClient client = newClient(OPEN_LOOP_CONNECTIONS);
        CountDownLatch done = new CountDownLatch(total);
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        double offset = 0;
        for (int i = 0; i < total; i++) {
            offset += -Math.log(1 - arrivals.nextDouble()) * period;
            long scheduled = start + (long) offset;
            for (long wait = scheduled - System.nanoTime(); wait > 0; wait = scheduled - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            int index = first + i;
            loop.runOnContext(ignored -> send(client, url, body, latencies, index, scheduled,
                    status -> done.countDown()));
        }
        boolean finished = done.await(seconds + 120L, TimeUnit.SECONDS);
        close(client);
        if (!finished) {
            throw new IllegalStateException((done.getCount()) + " requests to " + url + " never finished");
        }
    }

    /** Keeps {@code concurrency} requests in flight for {@code seconds}, counting the answers. */
    private void saturate(String url, String body, Throughput throughput, int seconds, int concurrency)
            throws InterruptedException {
        HttpClient client = newClient(concurrency);
        AtomicLong completed = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(concurrency);
        Latencies ignored = new Latencies(0);
        long started = System.nanoTime();
        long cpuBefore = processCpuNanos();
        for (int i = 0; i < concurrency; i++) {
            loop.runOnContext(nothing -> keepSending(client, url, body, end, completed, finished, ignored));
        }
        finished.await(seconds + 120L, TimeUnit.SECONDS);
        throughput.add(completed.get(), System.nanoTime() - started, processCpuNanos() - cpuBefore);
        close(client);
    }

    private HttpClient newClient(int connections) {
        return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(connections));
    }

    private static void close(HttpClient client) {
        client.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private void keepSending(HttpClient client, String url, String body, long end, AtomicLong completed,
            CountDownLatch finished, Latencies sink) {
        send(client, url, body, sink, -1, System.nanoTime(), status -> {
            if (status == 200) {
                completed.incrementAndGet();
            }
            if (System.nanoTime() < end) {
                keepSending(client, url, body, end, completed, finished, sink);
            } else {
                finished.countDown();
            }
        });
    }

    private void send(HttpClient client, String url, String body, Latencies latencies, int index, long scheduled,
            IntConsumer then) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)
                .putHeader("Content-Type", "application/json").putHeader("Authorization", "Bearer " + key);
        client.request(options)
                .compose(request -> request.send(Buffer.buffer(body)))
                .compose(response -> response.body().map(content -> {
                    String reported = response.getHeader(GatewayOverhead.HEADER);
                    if (index >= 0 && reported != null) {
                        latencies.reported[index] = Double.parseDouble(reported);
                    }
                    return response.statusCode() == 200 && !content.toString().contains("\"error\"")
                            ? 200 : Math.max(response.statusCode(), 500);
                }))
                .recover(failure -> Future.succeededFuture(599))
                .onSuccess(status -> {
                    if (index >= 0) {
                        latencies.record(index, System.nanoTime() - scheduled, status);
                    }
                    then.accept(status);
                });
    }

    /** CPU time of this JVM (the load generator, the gateway, the test broker), not of the upstream's. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static final class Throughput {
        private long answers;
        private long nanos;
        private long cpuNanos;

        void add(long completed, long elapsedNanos, long cpu) {
            answers += completed;
            nanos += elapsedNanos;
            cpuNanos += cpu;
        }

        double perSecond() {
            return answers / (nanos / 1e9);
        }

        double cpuMicrosPerAnswer() {
            return cpuNanos / 1e3 / Math.max(1, answers);
        }
    }

    private static final class Latencies {
        private final long[] nanos;
        private final double[] reported;
        private final AtomicInteger failed = new AtomicInteger();
        private int failures;

        Latencies(int size) {
            nanos = new long[size];
            reported = new double[size];
            Arrays.fill(reported, Double.NaN);
        }

        void record(int index, long latency, int status) {
            nanos[index] = latency;
            if (status != 200) {
                failures = failed.incrementAndGet();
            }
        }

        double percentile(int p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
        }

        double reportedPercentile(int p) {
            double[] values = Arrays.stream(reported).filter(value -> !Double.isNaN(value)).sorted().toArray();
            return values.length == 0 ? Double.NaN
                    : values[Math.min(values.length - 1, (int) Math.ceil(p / 100.0 * values.length) - 1)];
        }
    }
}
