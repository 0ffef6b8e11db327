package org.llmplatform.inference.service.upstream;

import io.smallrye.mutiny.Multi;

/** What the client gets once the upstream answered (or definitely did not): status, type and body. */
public record UpstreamReply(int status, String contentType, Multi<String> body) {
}
