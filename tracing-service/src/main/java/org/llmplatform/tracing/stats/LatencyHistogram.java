package org.llmplatform.tracing.stats;

/**
 * The latency histogram of the calls/stats rollup (migration V22's {@code tracing.latency_bucket}): one bucket per
 * millisecond below 64 ms, then 32 buckets per power of two. A bucket holds the whole milliseconds
 * {@code [lowest, highest]}, {@code highest - lowest < lowest / 32}; a percentile read from it is within
 * {@link #RELATIVE_ERROR} of the exact one (docs/tracing-service.md#call-stats-rollup).
 */
final class LatencyHistogram {

    /** The most a percentile read from the histogram differs from the exact one, relative to the exact one. */
    static final double RELATIVE_ERROR = 1.0 / 32;

    private static final int EXACT_BELOW = 64;
    private static final int PER_POWER_OF_TWO = 32;

    private LatencyHistogram() {
    }

    /** The bucket of a latency of at least 0 ms, as {@code tracing.latency_bucket} computes it. */
    static int bucket(long latencyMs) {
        if (latencyMs < EXACT_BELOW) {
            return (int) latencyMs;
        }
        int powerOfTwo = 63 - Long.numberOfLeadingZeros(latencyMs);
        return EXACT_BELOW + (powerOfTwo - 6) * PER_POWER_OF_TWO + (int) ((latencyMs >> (powerOfTwo - 5)) - PER_POWER_OF_TWO);
    }

    static long lowest(int bucket) {
        if (bucket < EXACT_BELOW) {
            return bucket;
        }
        int powerOfTwo = 6 + (bucket - EXACT_BELOW) / PER_POWER_OF_TWO;
        return (long) (PER_POWER_OF_TWO + (bucket - EXACT_BELOW) % PER_POWER_OF_TWO) << (powerOfTwo - 5);
    }

    static long highest(int bucket) {
        return bucket < EXACT_BELOW ? bucket : lowest(bucket + 1) - 1;
    }

    /**
     * PostgreSQL's {@code percentile_cont(fraction)} of the latencies counted, with each latency taken from its bucket:
     * the values of rank {@code floor(fraction * (n - 1))} and the next, interpolated; null without latencies.
     */
    static Double percentile(long[] counts, double fraction) {
        long n = 0;
        for (long count : counts) {
            n += count;
        }
        if (n == 0) {
            return null;
        }
        double position = fraction * (n - 1);
        long below = (long) Math.floor(position);
        double lower = valueOfRank(counts, below);
        if (position == below) {
            return lower;
        }
        return lower + (position - below) * (valueOfRank(counts, below + 1) - lower);
    }

    /** The latency of 0-based rank {@code rank}: its bucket's values spread evenly over the bucket's ranks. */
    private static double valueOfRank(long[] counts, long rank) {
        long before = 0;
        for (int bucket = 0; bucket < counts.length; bucket++) {
            long count = counts[bucket];
            if (rank < before + count) {
                long lowest = lowest(bucket);
                return lowest + (rank - before + 0.5) / count * (highest(bucket) - lowest);
            }
            before += count;
        }
        throw new IllegalArgumentException("rank " + rank + " of " + before);
    }
}
