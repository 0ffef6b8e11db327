package org.llmplatform.inference.usage;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.support.worker.ExpiredRowsPruner;

/**
 * Forgets the request ids the usage totals counted once no redelivery can bring their records back
 * ({@link GatewayConfig.Usage#countedRequestsKept()}): the ids are kept only to count a record once, and one row
 * per request ever made grew the database by about 150 bytes a request without end. Hourly, in batches.
 */
@Singleton
public class CountedRequestsPruner {

    private static final Duration INTERVAL = Duration.ofHours(1);
    private static final int BATCH_SIZE = 5_000;

    private final ExpiredRowsPruner pruner;

    public CountedRequestsPruner(Pool pool, GatewayConfig config, Vertx vertx) {
        this.pruner = new ExpiredRowsPruner("counted request ids", pool, vertx, "inference.usage_requests", "counted_at",
                config.usage().countedRequestsKept(), BATCH_SIZE, INTERVAL);
    }

    void start(@Observes StartupEvent started) {
        pruner.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        pruner.stop();
    }

    /** Forgets the ids counted longer ago than they are kept; answers how many. */
    public Uni<Integer> prune() {
        return pruner.prune();
    }
}
