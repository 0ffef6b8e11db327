package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.query.ExprParser;
import org.llmplatform.tracing.query.InvalidQueryException;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;

/** The request and response envelopes of the calls query endpoints; all strict, as the reference's are. */
final class CallQueryEnvelopes {

    /**
     * {@code expand_columns} is applied twice: by the query (filters and sorts through refs) and, unless
     * {@code return_expanded_column_values} is false, by {@code CallExpansion} to the returned calls.
     */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryReq(String projectId, CallFilter filter, Long limit, Long offset, List<SortBy> sortBy,
            JsonNode query, boolean includeCosts, boolean includeFeedback, boolean includeStorageSize,
            boolean includeTotalStorageSize, List<String> columns, List<String> expandColumns,
            Boolean returnExpandedColumnValues) {

        /** Checked in the reference's order: the page, the filter, the query, then the sort. */
        CallsQuery toQuery() {
            return CallsQuery.in(projectId).page(Page.of(limit, offset)).filter(filter)
                    .query(ExprParser.parseOptional(query)).sortBy(CallsQuery.sortKeys(sortBy))
                    .columns(CallsQuery.loadedColumns(columns, includeCosts)).storageSize(includeStorageSize)
                    .totalStorageSize(includeTotalStorageSize).feedback(includeFeedback).costs(includeCosts)
                    .expandColumns(expandColumns).build();
        }
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryStatsReq(String projectId, CallFilter filter, JsonNode query, Long limit,
            boolean includeTotalStorageSize, List<String> expandColumns) {

        /** A count: no order, no offset, nothing loaded per call; a limit, when given, is at least 1. */
        CallsQuery toQuery() {
            if (limit != null && limit < 1) {
                throw InvalidQueryException.unsupported("Limit must be a positive integer");
            }
            return CallsQuery.in(projectId).page(Page.of(limit, null)).filter(filter)
                    .query(ExprParser.parseOptional(query)).sortBy(List.of())
                    .totalStorageSize(includeTotalStorageSize).expandColumns(expandColumns).build();
        }
    }

    @RegisterForReflection
    record CallsQueryRes(List<CallSchema> calls) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryStatsRes(long count, Long totalStorageSizeBytes) {
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsOpNamesReq(String projectId) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsOpNamesRes(List<String> opNames) {
    }

    private CallQueryEnvelopes() {
    }
}
