package org.llmplatform.inference.chat;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * For chat completions the body's {@code stream} flag, not {@code Accept}, decides between JSON and
 * SSE (the SDKs send {@code Accept: text/event-stream} or {@code application/json}); each reply sets
 * its own Content-Type, so content negotiation must not refuse either.
 */
public class ChatAcceptFilter {

    private static final String CHAT_COMPLETIONS = "/v1/chat/completions";

    @ServerRequestFilter(preMatching = true)
    public void acceptEitherShape(ContainerRequestContext request) {
        if ("POST".equals(request.getMethod()) && CHAT_COMPLETIONS.equals(request.getUriInfo().getPath())) {
            request.getHeaders().putSingle(HttpHeaders.ACCEPT, "*/*");
        }
    }
}
