package org.llmplatform.tracing.retention;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Deletes the calls of projects with a retention once they are older than it: every interval, batch after batch
 * while batches come back full, each batch a short transaction of its own (row locks of one batch, never millions),
 * so ingest and queries go on beside it. Replicas do not run it twice: a batch runs under an advisory lock that
 * the others do not wait for.
 */
@ApplicationScoped
public class CallRetentionJob {

    private final RetentionStore store;
    private final int batchSize;
    private final PeriodicWorker rounds;

    public CallRetentionJob(RetentionStore store, RetentionConfig config, Vertx vertx) {
        this.store = store;
        this.batchSize = config.batchSize();
        this.rounds = new PeriodicWorker("Deleting expired calls", vertx, config.interval(),
                () -> deleteBatch().map(deleted -> deleted == batchSize));
    }

    void start(@Observes StartupEvent started) {
        rounds.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        rounds.stop();
    }

    /** Whether a round is under way. */
    public boolean busy() {
        return rounds.busy();
    }

    /** Starts a round now (a retention was set or shortened), rather than at the next tick. */
    public void wake() {
        rounds.wake();
    }

    /**
     * Deletes one batch of expired calls and search words now; answers how many (of whichever had more), or -1 where
     * another replica is deleting.
     */
    public Uni<Integer> deleteBatch() {
        return store.deleteExpiredBatch(OffsetDateTime.now(ZoneOffset.UTC), batchSize).invoke(deleted -> {
            if (deleted > 0) {
                Log.debugf("Deleted %d expired calls", deleted);
            }
        });
    }
}
