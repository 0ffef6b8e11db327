package org.llmplatform.inference.upstream;

import org.llmplatform.inference.http.StreamedBody;

/**
 * What the client gets once the upstream answered (or definitely did not): status and either a complete
 * JSON body or an SSE stream relayed as it comes, and the gateway's own time on the request until then
 * (upstream time excluded).
 */
public record UpstreamReply(int status, String body, StreamedBody stream, long overheadNanos) {

    static UpstreamReply complete(int status, String body) {
        return new UpstreamReply(status, body, null, 0);
    }

    static UpstreamReply streamed(StreamedBody stream) {
        return new UpstreamReply(200, null, stream, 0);
    }

    public boolean isStreamed() {
        return stream != null;
    }

    public String contentType() {
        return isStreamed() ? "text/event-stream" : "application/json";
    }

    /** The response entity: the complete body or the stream. */
    public Object entity() {
        return isStreamed() ? stream : body;
    }

    public UpstreamReply withStream(StreamedBody replaced) {
        return new UpstreamReply(status, null, replaced, overheadNanos);
    }

    public UpstreamReply withOverhead(long nanos) {
        return new UpstreamReply(status, body, stream, nanos);
    }
}
