package org.llmplatform.inference.responses;

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
 * Forgets stored responses older than {@code gateway.responses.kept} (default 30 days, as OpenAI keeps them), hourly,
 * in batches: a response past it is neither readable nor continued by {@code previous_response_id}.
 */
@Singleton
public class StoredResponsesPruner {

    private static final Duration INTERVAL = Duration.ofHours(1);
    private static final int BATCH_SIZE = 1_000;

    private final ExpiredRowsPruner pruner;

    public StoredResponsesPruner(Pool pool, GatewayConfig config, Vertx vertx) {
        this.pruner = new ExpiredRowsPruner("stored responses", pool, vertx, "inference.responses", "created_at",
                config.responses().kept(), BATCH_SIZE, INTERVAL);
    }

    void start(@Observes StartupEvent started) {
        pruner.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        pruner.stop();
    }

    /** Forgets the responses stored longer ago than they are kept; answers how many. */
    public Uni<Integer> prune() {
        return pruner.prune();
    }
}
