package org.llmplatform.inference.chat;

import java.util.Set;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * For chat completions and responses the body's {@code stream} flag, not {@code Accept}, decides between JSON and
 * SSE (the SDKs send {@code Accept: text/event-stream} or {@code application/json}); each reply sets
 * its own Content-Type, so content negotiation must not refuse either.
 */
public class ChatAcceptFilter {

    private static final Set<String> EITHER_SHAPE = Set.of("/v1/chat/completions", "/v1/responses");

    @ServerRequestFilter(preMatching = true)
    public void acceptEitherShape(ContainerRequestContext request) {
        if ("POST".equals(request.getMethod()) && EITHER_SHAPE.contains(request.getUriInfo().getPath())) {
            request.getHeaders().putSingle(HttpHeaders.ACCEPT, "*/*");
        }
    }
}
