package org.llmplatform.tracing.rest;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.service.CallQueryService.CallsRequest;
import org.llmplatform.tracing.service.CallQueryService.SortBy;
import org.llmplatform.tracing.service.CallSchema;
import org.llmplatform.tracing.store.query.CallFilter;

/** The request and response envelopes of the calls query endpoints; all strict, as the reference's are. */
final class CallQueryEnvelopes {

    /**
     * {@code expand_columns} is applied twice: by the query (filters and sorts through refs) and, unless
     * {@code return_expanded_column_values} is false, by {@code CallExpansion} to the returned calls.
     */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryReq(String projectId, CallsFilterReq filter, Long limit, Long offset, List<SortByReq> sortBy,
            JsonNode query, boolean includeCosts, boolean includeFeedback, boolean includeStorageSize,
            boolean includeTotalStorageSize, List<String> columns, List<String> expandColumns,
            Boolean returnExpandedColumnValues) {

        CallsRequest toRequest() {
            return new CallsRequest(projectId, filter == null ? null : filter.toFilter(), query, sortBy == null ? null
                    : sortBy.stream().map(key -> key == null ? null : new SortBy(key.field(), key.direction())).toList(),
                    limit, offset, columns, includeStorageSize, includeTotalStorageSize, includeFeedback, includeCosts,
                    expandColumns);
        }
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryStatsReq(String projectId, CallsFilterReq filter, JsonNode query, Long limit,
            boolean includeTotalStorageSize, List<String> expandColumns) {

        CallsRequest toRequest() {
            return new CallsRequest(projectId, filter == null ? null : filter.toFilter(), query, null, limit, null, null,
                    false, includeTotalStorageSize, false, false, expandColumns);
        }
    }

    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsFilterReq(List<String> opNames, List<String> inputRefs, List<String> outputRefs, List<String> parentIds,
            List<String> traceIds, List<String> callIds, List<String> threadIds, List<String> turnIds,
            Boolean traceRootsOnly, @JsonAlias("wb_user_ids") List<String> svcUserIds,
            @JsonAlias("wb_run_ids") List<String> svcRunIds) {

        CallFilter toFilter() {
            return new CallFilter(opNames, inputRefs, outputRefs, parentIds, traceIds, callIds, threadIds, turnIds,
                    traceRootsOnly, svcUserIds, svcRunIds);
        }
    }

    @StrictRequest
    @RegisterForReflection
    record SortByReq(String field, String direction) {
    }

    @RegisterForReflection
    record CallsQueryRes(List<CallSchema> calls) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CallsQueryStatsRes(long count, Long totalStorageSizeBytes) {
    }

    private CallQueryEnvelopes() {
    }
}
