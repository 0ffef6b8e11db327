package org.llmplatform.tracing.store.query;

import java.util.List;

/** {@code CallsFilter} (docs/tracing-service.md#calls-filter): every member optional, null and empty both mean "any". */
public record CallFilter(
        List<String> opNames,
        List<String> inputRefs,
        List<String> outputRefs,
        List<String> parentIds,
        List<String> traceIds,
        List<String> callIds,
        List<String> threadIds,
        List<String> turnIds,
        Boolean traceRootsOnly,
        List<String> svcUserIds,
        List<String> svcRunIds) {

    public static final CallFilter NONE = new CallFilter(null, null, null, null, null, null, null, null, null, null, null);
}
