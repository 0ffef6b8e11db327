package org.llmplatform.inference.chat;

import java.util.Map;
import java.util.function.BiConsumer;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.admission.RateLimitedAnswer;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.inference.upstream.UpstreamReply;

/**
 * What a chat completion request (or a legacy completion, an embeddings request) is answered with, for either
 * transport to write: the status, the body (a complete JSON text or a {@link StreamedBody} of SSE events) and the
 * headers that go with it ({@code rateLimitHeaders}: the {@code x-ratelimit-*} of the limits that apply).
 */
public record ChatAnswer(int status, Object body, String requestId, String overheadMillis,
        Map<String, String> rateLimitHeaders) implements RateLimitedAnswer<ChatAnswer> {

    public ChatAnswer(int status, Object body, String requestId, String overheadMillis) {
        this(status, body, requestId, overheadMillis, Map.of());
    }

    public static ChatAnswer relayed(UpstreamReply reply, String requestId) {
        return new ChatAnswer(reply.status(), reply.entity(), requestId, GatewayOverhead.millis(reply.overheadNanos()));
    }

    public static ChatAnswer generated(Object body, String requestId) {
        return new ChatAnswer(200, body, requestId, null);
    }

    /** This answer with the {@code x-ratelimit-*} headers of the limits its request was counted against. */
    @Override
    public ChatAnswer withRateLimitHeaders(Map<String, String> headers) {
        return headers.isEmpty() ? this : new ChatAnswer(status, body, requestId, overheadMillis, headers);
    }

    public boolean isStreamed() {
        return body instanceof StreamedBody;
    }

    public String contentType() {
        return isStreamed() ? "text/event-stream" : "application/json";
    }

    /** The headers besides Content-Type: the request id, our overhead on a relayed answer, no caching of our own streams. */
    public void headers(BiConsumer<String, String> header) {
        header.accept(CallHeaders.REQUEST_ID, requestId);
        rateLimitHeaders.forEach(header);
        if (overheadMillis != null) {
            header.accept(GatewayOverhead.HEADER, overheadMillis);
        } else if (isStreamed()) {
            header.accept("Cache-Control", "no-cache");
        }
    }
}
