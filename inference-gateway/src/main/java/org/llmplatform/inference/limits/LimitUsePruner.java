package org.llmplatform.inference.limits;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.llmplatform.support.worker.ExpiredRowsPruner;

/**
 * Forgets the counters of windows that ended: a row's window starts at most a month before it ends, so rows whose
 * window started more than 32 days ago are of no window still running. Hourly, in batches.
 */
@Singleton
public class LimitUsePruner {

    private static final Duration INTERVAL = Duration.ofHours(1);
    private static final Duration KEPT = Duration.ofDays(32);
    private static final int BATCH_SIZE = 5_000;

    private final ExpiredRowsPruner pruner;

    public LimitUsePruner(Pool pool, Vertx vertx) {
        this.pruner = new ExpiredRowsPruner("limit counters", pool, vertx, "inference.limit_use", "window_start", KEPT,
                BATCH_SIZE, INTERVAL);
    }

    void start(@Observes StartupEvent started) {
        pruner.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        pruner.stop();
    }
}
