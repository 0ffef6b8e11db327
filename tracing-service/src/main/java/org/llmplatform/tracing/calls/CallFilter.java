package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.query.InvalidQueryException;

/**
 * {@code CallsFilter} (docs/tracing-service.md#calls-filter) as requests state it and queries use it: every member optional,
 * null and empty both mean "any".
 */
@StrictRequest
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
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
        @JsonAlias("wb_user_ids") List<String> svcUserIds,
        @JsonAlias("wb_run_ids") List<String> svcRunIds) {

    /** The most values one list of a filter may hold, as the reference limits them. */
    public static final int MAX_LIST_LENGTH = 1000;

    public static final CallFilter NONE = new CallFilter(null, null, null, null, null, null, null, null, null, null, null);

    /** Just the call with this id. */
    static CallFilter onlyCall(String id) {
        return new CallFilter(null, null, null, null, null, List.of(id), null, null, null, null, null);
    }

    /**
     * This filter, once no list is longer than {@link #MAX_LIST_LENGTH} and no id, op name or ref longer than its
     * limit (the resource has checked the caller's access to the project by then).
     */
    public CallFilter checked() {
        checkLength("op_names", opNames);
        checkLength("input_refs", inputRefs);
        checkLength("output_refs", outputRefs);
        checkLength("parent_ids", parentIds);
        checkLength("trace_ids", traceIds);
        checkLength("call_ids", callIds);
        checkLength("thread_ids", threadIds);
        checkLength("turn_ids", turnIds);
        checkLength("svc_user_ids", svcUserIds);
        checkLength("svc_run_ids", svcRunIds);
        FieldLimits.checkEach(opNames, FieldLimits.REF, "body", "filter", "op_names");
        FieldLimits.checkEach(inputRefs, FieldLimits.REF, "body", "filter", "input_refs");
        FieldLimits.checkEach(outputRefs, FieldLimits.REF, "body", "filter", "output_refs");
        FieldLimits.checkEach(parentIds, FieldLimits.ID, "body", "filter", "parent_ids");
        FieldLimits.checkEach(traceIds, FieldLimits.ID, "body", "filter", "trace_ids");
        FieldLimits.checkEach(callIds, FieldLimits.ID, "body", "filter", "call_ids");
        FieldLimits.checkEach(threadIds, FieldLimits.ID, "body", "filter", "thread_ids");
        FieldLimits.checkEach(turnIds, FieldLimits.ID, "body", "filter", "turn_ids");
        return this;
    }

    /** Refuses a filter list longer than {@link #MAX_LIST_LENGTH}, naming the parameter. */
    public static void checkLength(String parameter, List<?> values) {
        if (values != null && values.size() > MAX_LIST_LENGTH) {
            throw InvalidQueryException.unsupported("Parameter: '" + parameter + "' request length is greater than max length ("
                    + MAX_LIST_LENGTH + "). Actual length: " + values.size());
        }
    }
}
