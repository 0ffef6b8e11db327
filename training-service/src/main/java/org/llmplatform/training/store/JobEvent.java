package org.llmplatform.training.store;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** An event of a job as the API shows it. */
public record JobEvent(UUID id, String type, Map<String, Object> data, Instant createdAt) {
}
