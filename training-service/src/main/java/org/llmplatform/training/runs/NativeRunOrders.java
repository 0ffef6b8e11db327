package org.llmplatform.training.runs;

import jakarta.enterprise.context.ApplicationScoped;
import org.llmplatform.training.service.RecentIds;

/** The native run orders this replica's executor read from training.jobs.control: cancelled operations, closed runs. */
@ApplicationScoped
public class NativeRunOrders {

    private final RecentIds cancelledOperations = new RecentIds(10_000);
    private final RecentIds closedRuns = new RecentIds(10_000);

    public void cancel(String operationId) {
        cancelledOperations.add(operationId);
    }

    public void close(String runId) {
        closedRuns.add(runId);
    }

    boolean cancelled(String operationId) {
        return cancelledOperations.contains(operationId);
    }

    boolean closed(String runId) {
        return closedRuns.contains(runId);
    }
}
