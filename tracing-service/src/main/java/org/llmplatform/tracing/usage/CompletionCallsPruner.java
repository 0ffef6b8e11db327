package org.llmplatform.tracing.usage;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.llmplatform.support.worker.ExpiredRowsPruner;

/**
 * Forgets a completion's link between its client's call and the gateway's once neither side can arrive again
 * ({@link UsageConfig#completionCallsKept()} after its last write): one row per completion ever served grew the
 * table without end. Hourly, in batches, as the gateway forgets its counted request ids.
 */
@ApplicationScoped
public class CompletionCallsPruner {

    private static final Duration INTERVAL = Duration.ofHours(1);
    private static final int BATCH_SIZE = 5_000;

    private final ExpiredRowsPruner pruner;

    public CompletionCallsPruner(Pool pool, UsageConfig config, Vertx vertx) {
        this.pruner = new ExpiredRowsPruner("completion call links", pool, vertx, "tracing.completion_calls",
                "linked_at", config.completionCallsKept(), BATCH_SIZE, INTERVAL);
    }

    void start(@Observes StartupEvent started) {
        pruner.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        pruner.stop();
    }

    /** Forgets the links last written longer ago than they are kept; answers how many. */
    public Uni<Integer> prune() {
        return pruner.prune();
    }
}
