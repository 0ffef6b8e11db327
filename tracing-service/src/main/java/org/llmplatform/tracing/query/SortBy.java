package org.llmplatform.tracing.query;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.llmplatform.tracing.common.StrictRequest;

/** One {@code sort_by} entry as a request states it; each query checks it into a {@link SortKey} its own way. */
@StrictRequest
@RegisterForReflection
public record SortBy(String field, String direction) {
}
