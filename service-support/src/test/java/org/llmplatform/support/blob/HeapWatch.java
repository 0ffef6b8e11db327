package org.llmplatform.support.blob;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The most heap a transfer keeps reachable: while it runs, the heap is collected every second and what
 * survives is measured, so garbage never counts and a whole blob held in memory always does.
 */
final class HeapWatch implements AutoCloseable {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final long baseline;
    private volatile long peak;
    private volatile boolean running = true;
    private final Thread sampler;

    private HeapWatch() {
        baseline = retainedHeap();
        peak = baseline;
        sampler = new Thread(() -> {
            while (running) {
                peak = Math.max(peak, retainedHeap());
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    static HeapWatch start() {
        return new HeapWatch();
    }

    /** The largest retained heap seen above the baseline, in bytes. */
    long peakGrowth() {
        return peak - baseline;
    }

    private static long retainedHeap() {
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
        peak = Math.max(peak, retainedHeap());
    }
}
