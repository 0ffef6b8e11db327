package org.llmplatform.inference.limits;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;

/** W&B Inference's limit: requests of one project in flight at once, not requests per minute. */
@Singleton
public class ConcurrencyLimiter {

    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final GatewayConfig config;

    public ConcurrencyLimiter(GatewayConfig config) {
        this.config = config;
    }

    /** Takes a slot of the project or answers 429 with Retry-After; release the permit exactly when done. */
    public Permit acquire(String project) {
        AtomicInteger count = inFlight.computeIfAbsent(project, ignored -> new AtomicInteger());
        if (count.incrementAndGet() > config.limits().concurrentRequestsPerProject()) {
            count.decrementAndGet();
            throw OpenAiException.concurrencyLimit(config.limits().retryAfterSeconds());
        }
        return new Permit(count);
    }

    /** A slot held by one request; releasing twice is harmless. */
    public static final class Permit {
        private final AtomicInteger count;
        private final AtomicBoolean released = new AtomicBoolean();

        Permit(AtomicInteger count) {
            this.count = count;
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                count.decrementAndGet();
            }
        }
    }
}
