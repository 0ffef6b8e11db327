package org.llmplatform.training.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** The embedded trainer's record of the jobs it took on (dedupe of at-least-once job requests). */
@ApplicationScoped
public class TrainerClaimStore {

    private final Pool pool;

    public TrainerClaimStore(Pool pool) {
        this.pool = pool;
    }

    /** True for the first claim of {@code jobId}, false when it was claimed before. */
    public Uni<Boolean> claim(UUID jobId) {
        return pool.preparedQuery("INSERT INTO training.trainer_claims (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING RETURNING job_id")
                .execute(Tuple.of(jobId))
                .map(rows -> rows.rowCount() == 1);
    }
}
