package org.llmplatform.training.service;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The jobs trainers were told to cancel (training.jobs.control); the most recent ones are remembered. */
@ApplicationScoped
public class CancelledJobs {

    private static final int REMEMBERED = 10_000;

    private final Set<String> cancelled = Collections.newSetFromMap(Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    }));

    public void cancel(String jobId) {
        cancelled.add(jobId);
    }

    public boolean isCancelled(String jobId) {
        return cancelled.contains(jobId);
    }
}
