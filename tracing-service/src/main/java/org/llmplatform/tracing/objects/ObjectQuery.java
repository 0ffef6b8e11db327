package org.llmplatform.tracing.objects;

import java.util.List;

/**
 * The filters of {@code objs/query} (null = no constraint) and its page; {@code sortBy} holds only the
 * honoured fields ({@code object_id}, {@code created_at}) with their direction.
 */
public record ObjectQuery(String projectId, List<String> objectIds, Boolean isOp, boolean latestOnly,
        List<String> baseObjectClasses, List<String> excludeBaseObjectClasses, List<String> leafObjectClasses,
        List<Sort> sortBy, Long limit, Long offset) {

    public record Sort(String column, boolean descending) {
    }
}
