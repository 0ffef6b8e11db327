package org.llmplatform.tracing.objects;

import java.util.List;
import org.llmplatform.tracing.query.Page;

/**
 * A validated {@code objs/query}, from the resource to the SQL: the filter, the honoured sort fields
 * ({@code object_id}, {@code created_at}) with their direction, the page, and what each returned version shows.
 */
public record ObjectQuery(String projectId, ObjectVersionFilter filter, List<Sort> sortBy, Page page,
        boolean metadataOnly, boolean includeStorageSize, boolean includeTagsAndAliases) {

    public record Sort(String column, boolean descending) {
    }
}
