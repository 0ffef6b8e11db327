package org.llmplatform.inference.admission;

import java.util.function.UnaryOperator;
import org.jboss.resteasy.reactive.RestHeader;
import org.llmplatform.model.events.UsageRecord;

/**
 * The headers every endpoint reads to admit a request, whichever transport carried it: the client's request id, the
 * project it names (ours or W&B's header) and the call that tracks it, as they came. A resource method takes them as
 * one {@code @BeanParam}.
 */
public record CallHeaders(@RestHeader(REQUEST_ID) String requestId, @RestHeader(COMPAT_PROJECT) String compatProject,
        @RestHeader(OPENAI_PROJECT) String openAiProject, @RestHeader(WEAVE_CALL_ID) String weaveCallId) {

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
