package org.llmplatform.training.service;

import java.util.List;

/** One cursor page of a list: its items and whether more follow. */
public record Page<T>(List<T> data, boolean hasMore) {

    public Page {
        data = List.copyOf(data);
    }

    /** The first {@code limit} of {@code fetched}, which holds one more item when another page follows. */
    static <T> Page<T> of(List<T> fetched, int limit) {
        return fetched.size() > limit ? new Page<>(fetched.subList(0, limit), true) : new Page<>(fetched, false);
    }
}
