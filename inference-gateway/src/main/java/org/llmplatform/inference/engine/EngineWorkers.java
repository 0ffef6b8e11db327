package org.llmplatform.inference.engine;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.llmplatform.inference.config.GatewayConfig;

/**
 * The pool that runs forward passes, sized from {@code gateway.engine.threads}. Its FIFO queue takes
 * turns of a few tokens each, so concurrent generations share the CPU fairly. A request's CPU work
 * before generating (tokenizing its prompt) runs here too, so that a request reaches its first forward
 * pass without waking another pool's thread: each hand-off between threads costs a scheduler wake-up,
 * which on a busy machine is worth more than the forward pass of a small model.
 */
@Singleton
public class EngineWorkers implements Executor {

    private final ThreadPoolExecutor pool;

    public EngineWorkers(GatewayConfig config) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory threads = task -> {
            Thread thread = new EngineThread(task, "llama-engine-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        int size = Math.max(1, config.engine().threads());
        this.pool = new ThreadPoolExecutor(size, size, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads);
    }

    public void submit(Runnable turn) {
        pool.execute(turn);
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    /** Whether a turn or a request waits for a worker; while none does, a generation may keep its worker. */
    public boolean othersWaiting() {
        return !pool.getQueue().isEmpty();
    }

    /** Whether the calling thread is one of this pool's. */
    public static boolean onWorker() {
        return Thread.currentThread() instanceof EngineThread;
    }

    private static final class EngineThread extends Thread {
        EngineThread(Runnable task, String name) {
            super(task, name);
        }
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
