package org.llmplatform.inference.service.upstream;

import io.smallrye.mutiny.Multi;

/**
 * What the client gets once the upstream answered (or definitely did not): status, type and body, and
 * the gateway's own time on the request until then (upstream time excluded).
 */
public record UpstreamReply(int status, String contentType, Multi<String> body, long overheadNanos) {

    public UpstreamReply(int status, String contentType, Multi<String> body) {
        this(status, contentType, body, 0);
    }
}
