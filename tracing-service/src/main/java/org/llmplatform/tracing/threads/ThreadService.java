package org.llmplatform.tracing.threads;

import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.query.Page;
import org.llmplatform.tracing.query.SortBy;
import org.llmplatform.tracing.query.SortKey;
import org.llmplatform.tracing.threads.ThreadStore.ThreadRow;
import org.llmplatform.tracing.threads.ThreadStore.ThreadsQuery;

/** {@code threads/stream_query}: validation, then the aggregation in SQL. */
@ApplicationScoped
public class ThreadService {

    /** A threads query as the request states it. */
    public record ThreadsRequest(String projectId, String afterDatetime, String beforeDatetime, List<String> threadIds,
            List<SortBy> sortBy, Long limit, Long offset) {
    }

    private final ThreadStore store;
    private final CurrentPrincipal caller;

    public ThreadService(ThreadStore store, CurrentPrincipal caller) {
        this.store = store;
        this.caller = caller;
    }

    public Multi<ThreadRow> stream(ThreadsRequest request) {
        String project = caller.requireProject(request.projectId()).toString();
        Page page = Page.of(request.limit(), request.offset());
        CallFilter.checkLength("thread_ids", request.threadIds());
        return store.stream(new ThreadsQuery(project, time(request.afterDatetime(), "after_datetime"),
                time(request.beforeDatetime(), "before_datetime"), request.threadIds(), sortKeys(request.sortBy()),
                page.limit(), page.offset()));
    }

    private static OffsetDateTime time(String value, String field) {
        return value == null ? null : Timestamps.parse(value, List.of("body", "filter", field));
    }

    private static List<SortKey> sortKeys(List<SortBy> sortBy) {
        if (sortBy == null) {
            return null;
        }
        List<SortKey> keys = new ArrayList<>();
        for (int i = 0; i < sortBy.size(); i++) {
            SortBy key = sortBy.get(i);
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
