package org.llmplatform.inference.admission;

import java.util.List;
import java.util.regex.Pattern;
import org.llmplatform.inference.chat.ChatCompletionsResource;
import org.llmplatform.inference.chat.UpstreamChatRoute;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;

/** What the headers of a chat completion request mean, for both of its handlers ({@link UpstreamChatRoute}, {@link ChatCompletionsResource}). */
public final class ChatHeaders {

    public static final String REQUEST_ID = "X-Request-Id";
    public static final String COMPAT_PROJECT = "Compat-Project";
    public static final String OPENAI_PROJECT = "OpenAI-Project";

    private static final Pattern WEAVE_CALL_ID = Pattern.compile("[0-9A-Za-z._-]{1,128}");

    /** The id of the call that tracks the request, when a caller names one; the usage record carries it. */
    public static String weaveCallId(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        if (!WEAVE_CALL_ID.matcher(header).matches()) {
            throw ApiException.invalidField("value_error", List.of("header", UsageRecord.WEAVE_CALL_HEADER),
                    "A call id has 1 to 128 letters, digits, '.', '_' or '-'", header);
        }
        return header;
    }

    /** The {@code X-Request-Id} of the response: the caller's own, else a new one. */
    public static String responseRequestId(String requestIdHeader) {
        return requestIdHeader != null && !requestIdHeader.isBlank() ? requestIdHeader : Uuids.v7().toString().replace("-", "");
    }

    private ChatHeaders() {
    }
}
