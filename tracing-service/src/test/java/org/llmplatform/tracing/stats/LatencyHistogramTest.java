package org.llmplatform.tracing.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The rollup's latency histogram: its buckets' bounds, and percentiles within the stated error of the exact ones. */
class LatencyHistogramTest {

    @Test
    void everyLatencyLiesInItsBucketAndBucketsAreAtMostAThirtySecondOfTheirLowestWide() {
        for (long latency : new long[] {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4095, 4096, 5000, 86_400_000L, 1L << 40}) {
            int bucket = LatencyHistogram.bucket(latency);
            assertTrue(LatencyHistogram.lowest(bucket) <= latency && latency <= LatencyHistogram.highest(bucket), "" + latency);
        }
        for (int bucket = 0; bucket < 1500; bucket++) {
            long lowest = LatencyHistogram.lowest(bucket);
            assertEquals(bucket, LatencyHistogram.bucket(lowest));
            assertEquals(bucket, LatencyHistogram.bucket(LatencyHistogram.highest(bucket)));
            if (bucket > 0) {
                assertEquals(LatencyHistogram.highest(bucket - 1) + 1, lowest, "buckets follow each other");
            }
            assertTrue(LatencyHistogram.highest(bucket) - lowest <= lowest * LatencyHistogram.RELATIVE_ERROR);
        }
    }

    @Test
    void percentilesAreWithinTheStatedErrorOfPercentileCont() {
        Random random = new Random(30);
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(round < 100 ? 20 : 5000);
            long[] latencies = new long[n];
            for (int i = 0; i < n; i++) {
                latencies[i] = round % 3 == 0 ? random.nextInt(80) : (long) Math.exp(random.nextDouble() * 16);
            }
            Arrays.sort(latencies);
            long[] counts = new long[LatencyHistogram.bucket(latencies[n - 1]) + 1];
            for (long latency : latencies) {
                counts[LatencyHistogram.bucket(latency)]++;
            }
            for (double fraction : new double[] {0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1}) {
                double position = fraction * (n - 1);
                int below = (int) Math.floor(position);
                double exact = latencies[below] + (position - below) * (latencies[Math.min(below + 1, n - 1)] - latencies[below]);
                double read = LatencyHistogram.percentile(counts, fraction);
                assertTrue(Math.abs(read - exact) <= exact * LatencyHistogram.RELATIVE_ERROR + 1e-9,
                        "p" + fraction + " of " + n + ": " + read + " against " + exact);
                if (latencies[n - 1] < 64) {
                    assertEquals(exact, read, 1e-9, "exact below 64 ms");
                }
            }
        }
        assertNull(LatencyHistogram.percentile(new long[3], 0.5));
    }
}
