package org.llmplatform.training.service;

import java.util.Optional;
import java.util.UUID;

/** A cursor page: the items past {@code after} (an item id) in the given order, at most {@code limit}. */
public record PageRequest(Optional<UUID> after, int limit, boolean descending) {
}
