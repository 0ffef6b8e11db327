package org.llmplatform.tracing.feedback;

import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.body.LimitSet;

/** The ids, refs and agent names of one feedback item: the body of {@code feedback/create} and {@code replace}, each of a batch's. */
@LimitSet({
        @Limit(field = "id", max = FieldLimits.ID),
        @Limit(field = "weave_ref", max = FieldLimits.REF),
        @Limit(field = "annotation_ref", max = FieldLimits.REF),
        @Limit(field = "runnable_ref", max = FieldLimits.REF),
        @Limit(field = "call_ref", max = FieldLimits.REF),
        @Limit(field = "trigger_ref", max = FieldLimits.REF),
        @Limit(field = "queue_id", max = FieldLimits.ID),
        @Limit(field = "span_agent_name", max = FieldLimits.NAME),
        @Limit(field = "span_agent_version", max = FieldLimits.NAME),
        @Limit(field = "span_conversation_id", max = FieldLimits.ID),
        @Limit(field = "span_trace_id", max = FieldLimits.ID),
        @Limit(field = "scorer_trace_id", max = FieldLimits.ID)})
public final class FeedbackLimits {

    private FeedbackLimits() {
    }
}
