package org.llmplatform.inference.admission;

import java.util.function.UnaryOperator;
import org.llmplatform.model.events.UsageRecord;

/**
 * The headers every endpoint reads to admit a request, whichever transport carried it: the client's request id, the
 * project it names (ours or W&B's header) and the call that tracks it, as they came.
 */
public record CallHeaders(String requestId, String compatProject, String openAiProject, String weaveCallId) {

    public static final String REQUEST_ID = "X-Request-Id";
    public static final String COMPAT_PROJECT = "Compat-Project";
    public static final String OPENAI_PROJECT = "OpenAI-Project";
    public static final String WEAVE_CALL_ID = UsageRecord.WEAVE_CALL_HEADER;

    /** The headers of a request, {@code header} giving a header's value by name (null when absent). */
    public static CallHeaders of(UnaryOperator<String> header) {
        return new CallHeaders(header.apply(REQUEST_ID), header.apply(COMPAT_PROJECT), header.apply(OPENAI_PROJECT),
                header.apply(WEAVE_CALL_ID));
    }
}
