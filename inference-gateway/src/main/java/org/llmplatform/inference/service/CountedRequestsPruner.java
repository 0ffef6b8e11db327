package org.llmplatform.inference.service;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.store.UsageTotalsStore;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Forgets the request ids the usage totals counted once no redelivery can bring their records back
 * ({@link GatewayConfig.Usage#countedRequestsKept()}): the ids are kept only to count a record once, and one row
 * per request ever made grew the database by about 150 bytes a request without end.
 */
@ApplicationScoped
public class CountedRequestsPruner {

    private static final Logger LOG = Logger.getLogger(CountedRequestsPruner.class);
    private static final Duration INTERVAL = Duration.ofHours(1);

    private final UsageTotalsStore store;
    private final Duration kept;
    private final PeriodicWorker rounds;

    public CountedRequestsPruner(UsageTotalsStore store, GatewayConfig config, Vertx vertx) {
        this.store = store;
        this.kept = config.usage().countedRequestsKept();
        this.rounds = new PeriodicWorker("Forgetting counted request ids", vertx, INTERVAL, () -> prune().replaceWith(false));
    }

    void start(@Observes StartupEvent started) {
        rounds.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        rounds.stop();
    }

    /** Forgets the ids counted longer ago than they are kept; answers how many. */
    public Uni<Integer> prune() {
        return store.forgetRequestsCountedBefore(OffsetDateTime.now(ZoneOffset.UTC).minus(kept))
                .invoke(forgotten -> {
                    if (forgotten > 0) {
                        LOG.infof("Forgot %d request ids counted more than %s ago", forgotten, kept);
                    }
                });
    }
}
