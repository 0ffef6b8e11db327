package org.llmplatform.tracing.retention;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** A project's call retention: none (the default) or a whole number of days, at least one. */
@ApplicationScoped
public class RetentionService {

    /** A hundred years: past it a retention means nothing and only risks overflowing the cutoff. */
    static final int MAX_RETENTION_DAYS = 36_500;

    private final RetentionStore store;
    private final CurrentPrincipal caller;
    private final CallRetentionJob job;

    public RetentionService(RetentionStore store, CurrentPrincipal caller, CallRetentionJob job) {
        this.store = store;
        this.caller = caller;
        this.job = job;
    }

    public Uni<Integer> read(String projectId) {
        return store.read(projectId);
    }

    /** Sets the retention (null: none) and has the job delete what it expires at once; answers it. */
    public Uni<Integer> update(String projectId, Integer retentionDays) {
        if (retentionDays != null && (retentionDays < 1 || retentionDays > MAX_RETENTION_DAYS)) {
            throw ApiException.invalidField("value_error", List.of("body", "retention_days"),
                    "retention_days must be null (no retention) or a number of days from 1 to " + MAX_RETENTION_DAYS,
                    retentionDays);
        }
        return store.write(projectId, retentionDays, caller.get().userName()).invoke(job::wake).replaceWith(retentionDays);
    }
}
