package org.llmplatform.training.service;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A set of ids that remembers the most recent {@code capacity} added (orders read from training.jobs.control). */
public final class RecentIds {

    private final Set<String> ids;

    public RecentIds(int capacity) {
        this.ids = Collections.newSetFromMap(Collections.synchronizedMap(new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        }));
    }

    public void add(String id) {
        ids.add(id);
    }

    public boolean contains(String id) {
        return ids.contains(id);
    }
}
