package org.llmplatform.tracing.service;

import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.store.ThreadStore;
import org.llmplatform.tracing.store.ThreadStore.ThreadRow;
import org.llmplatform.tracing.store.ThreadStore.ThreadsQuery;
import org.llmplatform.tracing.store.query.SortKey;

/** {@code threads/stream_query}: validation, then the aggregation in SQL. */
@ApplicationScoped
public class ThreadService {

    /** A threads query as the request states it. */
    public record ThreadsRequest(String projectId, String afterDatetime, String beforeDatetime, List<String> threadIds,
            List<CallQueryService.SortBy> sortBy, Long limit, Long offset) {
    }

    private final ThreadStore store;
    private final CurrentPrincipal caller;

    public ThreadService(ThreadStore store, CurrentPrincipal caller) {
        this.store = store;
        this.caller = caller;
    }

    public Multi<ThreadRow> stream(ThreadsRequest request) {
        String project = caller.requireProject(request.projectId()).toString();
        if (request.limit() != null && request.limit() < 0) {
            throw ApiException.badRequest("Limit must be a positive integer");
        }
        if (request.offset() != null && request.offset() < 0) {
            throw ApiException.badRequest("Offset must be a positive integer");
        }
        if (request.threadIds() != null && request.threadIds().size() > CallQueryService.MAX_FILTER_LIST_LENGTH) {
            throw ApiException.badRequest("Parameter: 'thread_ids' request length is greater than max length ("
                    + CallQueryService.MAX_FILTER_LIST_LENGTH + "). Actual length: " + request.threadIds().size());
        }
        return store.stream(new ThreadsQuery(project, time(request.afterDatetime(), "after_datetime"),
                time(request.beforeDatetime(), "before_datetime"), request.threadIds(), sortKeys(request.sortBy()),
                request.limit(), request.offset()));
    }

    private static OffsetDateTime time(String value, String field) {
        return value == null ? null : Timestamps.parse(value, List.of("body", "filter", field));
    }

    private static List<SortKey> sortKeys(List<CallQueryService.SortBy> sortBy) {
        if (sortBy == null) {
            return null;
        }
        List<SortKey> keys = new ArrayList<>();
        for (int i = 0; i < sortBy.size(); i++) {
            CallQueryService.SortBy key = sortBy.get(i);
            String direction = key == null || key.direction() == null ? "" : key.direction().toLowerCase(Locale.ROOT);
            if (key == null || key.field() == null || !(direction.equals("asc") || direction.equals("desc"))) {
                throw ApiException.invalidField("value_error", List.of("body", "sort_by", i),
                        "A sort key needs a field and a direction, 'asc' or 'desc'", null);
            }
            keys.add(new SortKey(key.field(), direction.equals("desc")));
        }
        return keys;
    }
}
