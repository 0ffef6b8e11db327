package org.llmplatform.training.service;

import java.util.List;
import org.llmplatform.training.store.Checkpoint;

public record CheckpointPage(List<Checkpoint> data, boolean hasMore) {

    public CheckpointPage {
        data = List.copyOf(data);
    }

    /** The first {@code limit} of {@code fetched}, which holds one more row when another page follows. */
    static CheckpointPage of(List<Checkpoint> fetched, int limit) {
        return fetched.size() > limit ? new CheckpointPage(fetched.subList(0, limit), true) : new CheckpointPage(fetched, false);
    }
}
