package org.llmplatform.training.service;

import java.util.List;
import org.llmplatform.training.store.JobEvent;

public record EventPage(List<JobEvent> data, boolean hasMore) {

    public EventPage {
        data = List.copyOf(data);
    }
}
