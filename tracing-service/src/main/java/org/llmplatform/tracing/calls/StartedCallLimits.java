package org.llmplatform.tracing.calls;

import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.body.LimitSet;

/** The ids and names of a started (or complete) call, wherever a body carries one: {@code start}, {@code batch[]}. */
@LimitSet({
        @Limit(field = "id", max = FieldLimits.ID),
        @Limit(field = "trace_id", max = FieldLimits.ID),
        @Limit(field = "parent_id", max = FieldLimits.ID),
        @Limit(field = "thread_id", max = FieldLimits.ID),
        @Limit(field = "turn_id", max = FieldLimits.ID),
        @Limit(field = "op_name", max = FieldLimits.REF),
        @Limit(field = "display_name", max = FieldLimits.DISPLAY_NAME)})
public final class StartedCallLimits {

    private StartedCallLimits() {
    }
}
