package org.llmplatform.tracing.query;

/** One {@code sort_by} entry: a field as queries name it, and its direction. */
public record SortKey(String field, boolean descending) {
}
