package org.llmplatform.tracing.store.query;

import java.util.List;
import java.util.Set;
import org.llmplatform.tracing.store.query.Expr.Operation;

/**
 * A calls query after validation. {@code sortBy} null means the default order; {@code columns} null
 * means every column, else the top-level columns to load (the always-loaded ones need not be named).
 * {@code feedback} loads each call's feedback rows too, {@code costs} its costs (docs/tracing-service.md#costs).
 * {@code expandColumns} are the paths whose object refs filters and sorts look through (section 4.8).
 */
public record CallsQuery(
        String projectId,
        CallFilter filter,
        Operation query,
        List<SortKey> sortBy,
        Long limit,
        Long offset,
        Set<String> columns,
        boolean storageSize,
        boolean totalStorageSize,
        boolean feedback,
        boolean costs,
        List<String> expandColumns) {
}
