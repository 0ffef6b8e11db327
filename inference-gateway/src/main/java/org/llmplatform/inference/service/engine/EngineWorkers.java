package org.llmplatform.inference.service.engine;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.llmplatform.inference.config.GatewayConfig;

/**
 * The pool that runs forward passes, sized from {@code gateway.engine.threads}. Its FIFO queue takes
 * turns of a few tokens each, so concurrent generations share the CPU fairly.
 */
@ApplicationScoped
public class EngineWorkers {

    private final ExecutorService pool;

    public EngineWorkers(GatewayConfig config) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory threads = task -> {
            Thread thread = new Thread(task, "llama-engine-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        this.pool = Executors.newFixedThreadPool(Math.max(1, config.engine().threads()), threads);
    }

    public void submit(Runnable turn) {
        pool.execute(turn);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
