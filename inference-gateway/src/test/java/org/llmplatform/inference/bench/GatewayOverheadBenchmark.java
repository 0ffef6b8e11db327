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
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
import org.llmplatform.inference.rest.GatewayOverhead;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * The gateway's added latency and throughput against a canned upstream ({@link BenchUpstream}): the
 * same non-streamed and streamed requests sent directly to the upstream and through the gateway, in
 * the same run. Latency is measured open-loop (requests leave on a fixed schedule whatever the
 * answers do, and each one is timed from its scheduled send time, so queueing is not hidden);
 * throughput closed-loop at saturation. Direct and gateway measurements alternate in slices of
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
    private static final int SATURATION_CONCURRENCY = Integer.getInteger("bench.saturation.concurrency", 64);
    private static final int SLICE_SECONDS = Integer.getInteger("bench.slice", 5);
    /** Enough connections for an open loop to ride out a stall of this many requests without queueing. */
    private static final int OPEN_LOOP_CONNECTIONS = 256;
    private static final String JSON = "{\"model\":\"" + BenchUpstream.MODEL + "\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Say hello to the benchmark\"}],\"max_tokens\":16,\"temperature\":0.7}";
    private static final String STREAM = JSON.substring(0, JSON.length() - 1) + ",\"stream\":true}";

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
        for (String body : new String[] {JSON, STREAM}) {
            String kind = body == JSON ? "non-streamed" : "streamed";
            Latencies baseline = new Latencies(RATE * SECONDS);
            Latencies ours = new Latencies(RATE * SECONDS);
            for (int done = 0; done < SECONDS; done += SLICE_SECONDS) {
                int slice = Math.min(SLICE_SECONDS, SECONDS - done);
                openLoop(direct, body, baseline, RATE * done, slice);
                openLoop(through, body, ours, RATE * done, slice);
            }
            System.out.printf("BENCH load average after the %s latency runs: %s%n", kind, loadAverage());
            System.out.printf("BENCH %s latency at %d req/s for %d s: direct p50 %.3f ms p99 %.3f ms (%d failed) | "
                            + "gateway p50 %.3f ms p99 %.3f ms (%d failed)%n", kind, RATE, SECONDS,
                    baseline.percentile(50), baseline.percentile(99), baseline.failures,
                    ours.percentile(50), ours.percentile(99), ours.failures);
            System.out.printf("BENCH %s added latency: p50 %.3f ms (target <= 1), p99 %.3f ms (target <= 5); "
                            + "gateway-reported overhead (%s) p50 %.3f ms p99 %.3f ms%n", kind,
                    ours.percentile(50) - baseline.percentile(50), ours.percentile(99) - baseline.percentile(99),
                    GatewayOverhead.HEADER, ours.reportedPercentile(50), ours.reportedPercentile(99));
        }
        for (String body : new String[] {JSON, STREAM}) {
            String kind = body == JSON ? "non-streamed" : "streamed";
            Throughput baseline = new Throughput();
            Throughput ours = new Throughput();
            for (int done = 0; done < SATURATION_SECONDS; done += SLICE_SECONDS) {
                int slice = Math.min(SLICE_SECONDS, SATURATION_SECONDS - done);
                saturate(direct, body, baseline, slice);
                saturate(through, body, ours, slice);
            }
            System.out.printf("BENCH %s saturation (%d in flight, %d s): direct %.0f req/s, gateway %.0f req/s, "
                            + "ratio %.2f (target >= 0.8); load average %s%n", kind, SATURATION_CONCURRENCY,
                    SATURATION_SECONDS, baseline.perSecond(), ours.perSecond(), ours.perSecond() / baseline.perSecond(),
                    loadAverage());
        }
    }

    /**
     * Sends {@code RATE} requests a second for {@code seconds} on a fixed schedule, timing each from its
     * scheduled start into {@code latencies} from index {@code first}.
     */
    private void openLoop(String url, String body, Latencies latencies, int first, int seconds)
            throws InterruptedException {
        int total = RATE * seconds;
        long period = TimeUnit.SECONDS.toNanos(1) / RATE;
        HttpClient client = newClient(OPEN_LOOP_CONNECTIONS);
        CountDownLatch done = new CountDownLatch(total);
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        for (int i = 0; i < total; i++) {
            long scheduled = start + i * period;
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

    /** Keeps {@code SATURATION_CONCURRENCY} requests in flight for {@code seconds}, counting the answers. */
    private void saturate(String url, String body, Throughput throughput, int seconds) throws InterruptedException {
        HttpClient client = newClient(SATURATION_CONCURRENCY);
        AtomicLong completed = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(SATURATION_CONCURRENCY);
        Latencies ignored = new Latencies(0);
        long started = System.nanoTime();
        for (int i = 0; i < SATURATION_CONCURRENCY; i++) {
            loop.runOnContext(nothing -> keepSending(client, url, body, end, completed, finished, ignored));
        }
        finished.await(seconds + 120L, TimeUnit.SECONDS);
        throughput.add(completed.get(), System.nanoTime() - started);
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

    private static final class Throughput {
        private long answers;
        private long nanos;

        void add(long completed, long elapsedNanos) {
            answers += completed;
            nanos += elapsedNanos;
        }

        double perSecond() {
            return answers / (nanos / 1e9);
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
