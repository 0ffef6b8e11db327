package org.llmplatform.tracing.calls;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.llmplatform.tracing.query.Expr.Operation;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.query.SortKey;

/**
 * A validated calls query, from the resource to the SQL. {@code sortBy} null means the default order;
 * {@code columns} null means every column, else the top-level columns to load (the always-loaded ones
 * need not be named). {@code feedback} loads each call's feedback rows too, {@code costs} its costs
 * (docs/tracing-service.md#costs). {@code expandColumns} are the paths whose object refs filters and sorts
 * look through (docs/tracing-service.md#calls-query). Built with {@link #in}.
 */
public record CallsQuery(
        String projectId,
        CallFilter filter,
        Operation query,
        List<SortKey> sortBy,
        Page page,
        Set<String> columns,
        boolean storageSize,
        boolean totalStorageSize,
        boolean feedback,
        boolean costs,
        List<String> expandColumns) {

    /** A query of every visible call of the project, in the default order, until the builder says more. */
    public static Builder in(String projectId) {
        return new Builder(projectId);
    }

    /** The sort keys of a request; a key without a field or with another direction than asc/desc is malformed. */
    static List<SortKey> sortKeys(List<SortBy> sortBy) {
        if (sortBy == null) {
            return null;
        }
        List<SortKey> keys = new ArrayList<>();
        for (int i = 0; i < sortBy.size(); i++) {
            SortBy entry = sortBy.get(i);
            List<Object> at = List.of("sort_by", i);
            if (entry == null || entry.field() == null) {
                throw InvalidQueryException.malformed("missing", entry == null ? at : append(at, "field"), "Field required");
            }
            String direction = entry.direction() == null ? "" : entry.direction().toLowerCase(Locale.ROOT);
            if (!direction.equals("asc") && !direction.equals("desc")) {
                throw InvalidQueryException.malformed("literal_error", append(at, "direction"),
                        "Input should be 'asc' or 'desc'");
            }
            keys.add(new SortKey(entry.field(), direction.equals("desc")));
        }
        return keys;
    }

    /** The top-level columns to load for the requested ones: the part of each name before its first dot; null for all. */
    static Set<String> loadedColumns(List<String> columns, boolean includeCosts) {
        if (columns == null || columns.isEmpty()) {
            return null;
        }
        Set<String> roots = new HashSet<>();
        for (String column : columns) {
            if (column != null) {
                roots.add(column.split("\\.", 2)[0]);
            }
        }
        if (includeCosts) {
            roots.add("summary");
        }
        if (roots.contains("summary")) {
            // The derived summary.weave needs these.
            roots.addAll(List.of("ended_at", "exception", "display_name"));
        }
        return roots;
    }

    private static List<Object> append(List<Object> at, Object key) {
        List<Object> loc = new ArrayList<>(at);
        loc.add(key);
        return loc;
    }

    /** Sets what a request names; everything else keeps the meaning "none" or "all". */
    public static final class Builder {

        private final String projectId;
        private CallFilter filter = CallFilter.NONE;
        private Operation query;
        private List<SortKey> sortBy;
        private Page page = Page.ALL;
        private Set<String> columns;
        private boolean storageSize;
        private boolean totalStorageSize;
        private boolean feedback;
        private boolean costs;
        private List<String> expandColumns;

        private Builder(String projectId) {
            this.projectId = projectId;
        }

        public Builder filter(CallFilter filter) {
            this.filter = filter == null ? CallFilter.NONE : filter.checked();
            return this;
        }

        public Builder query(Operation query) {
            this.query = query;
            return this;
        }

        public Builder sortBy(List<SortKey> sortBy) {
            this.sortBy = sortBy;
            return this;
        }

        public Builder page(Page page) {
            this.page = page;
            return this;
        }

        public Builder columns(Set<String> columns) {
            this.columns = columns;
            return this;
        }

        public Builder storageSize(boolean storageSize) {
            this.storageSize = storageSize;
            return this;
        }

        public Builder totalStorageSize(boolean totalStorageSize) {
            this.totalStorageSize = totalStorageSize;
            return this;
        }

        public Builder feedback(boolean feedback) {
            this.feedback = feedback;
            return this;
        }

        public Builder costs(boolean costs) {
            this.costs = costs;
            return this;
        }

        public Builder expandColumns(List<String> expandColumns) {
            this.expandColumns = expandColumns;
            return this;
        }

        public CallsQuery build() {
            return new CallsQuery(projectId, filter, query, sortBy, page, columns, storageSize, totalStorageSize, feedback,
                    costs, expandColumns);
        }
    }
}
