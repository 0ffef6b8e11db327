package org.llmplatform.training.service;

import jakarta.enterprise.context.ApplicationScoped;

/** The jobs trainers were told to cancel (training.jobs.control); the most recent ones are remembered. */
@ApplicationScoped
public class CancelledJobs {

    private final RecentIds cancelled = new RecentIds(10_000);

    public void cancel(String jobId) {
        cancelled.add(jobId);
    }

    public boolean isCancelled(String jobId) {
        return cancelled.contains(jobId);
    }
}
