package org.llmplatform.tracing.queues;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** {@code AnnotationQueueAddCallsRes}: the calls queued now, and those that already were. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AddedCalls(long addedCount, long duplicates) {
}
