package org.llmplatform.support.forward;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyOptions;
import io.vertx.httpproxy.ProxyRequest;
import io.vertx.httpproxy.ProxyResponse;
import java.net.URI;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Relays requests to one other service as they came (Vert.x's reverse proxy): method, path below the
 * upstream's base path, query, headers and body go there, and its status, headers and body come back, chunk
 * by chunk with back-pressure both ways, so JSON Lines and server-sent events reach the caller as the upstream
 * writes them. Nothing blocks and no body is held whole. An upstream that cannot be reached answers 502 with
 * the error body of the API being forwarded, so the caller's client can show what failed.
 */
public final class HttpForwarder {

    private static final Logger LOG = Logger.getLogger(HttpForwarder.class);

    private final HttpProxy proxy;

    /**
     * @param client      the client the upstream requests go through (its options hold the timeouts and pool)
     * @param upstream    the service's base URL; a request's path and query are appended to its path
     * @param failureBody the JSON error body for a message, in the shape of the API being forwarded
     */
    public HttpForwarder(HttpClient client, URI upstream, Function<String, String> failureBody) {
        boolean tls = "https".equalsIgnoreCase(upstream.getScheme());
        int port = upstream.getPort() != -1 ? upstream.getPort() : tls ? 443 : 80;
        String basePath = upstream.getRawPath() == null ? "" : upstream.getRawPath().replaceFirst("/$", "");
        this.proxy = HttpProxy.reverseProxy(new ProxyOptions(), client)
                .origin(context -> context.client().request(new RequestOptions()
                        .setHost(upstream.getHost()).setPort(port).setSsl(tls)))
                .addInterceptor(new Forwarding(upstream, basePath, failureBody));
    }

    /** Answers {@code request} with what the upstream answers to it. */
    public void forward(HttpServerRequest request) {
        proxy.handle(request);
    }

    private record Forwarding(URI upstream, String basePath, Function<String, String> failureBody) implements ProxyInterceptor {

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            ProxyRequest request = context.request();
            HttpServerRequest caller = request.proxiedRequest();
            request.setURI(basePath + request.getURI());
            // The upstream sees its own host; the caller's travels as X-Forwarded-Host.
            if (caller.authority() != null) {
                request.putHeader("X-Forwarded-Host", caller.authority().toString());
            }
            request.putHeader("X-Forwarded-Proto", caller.scheme());
            if (caller.remoteAddress() != null) {
                String earlier = caller.getHeader("X-Forwarded-For");
                String address = caller.remoteAddress().hostAddress();
                request.putHeader("X-Forwarded-For", earlier == null ? address : earlier + ", " + address);
            }
            return context.sendRequest().recover(failure -> {
                LOG.debugf("%s did not answer %s: %s", upstream, caller.uri(), failure.getMessage());
                return Future.succeededFuture(request.release().response()
                        .setStatusCode(502)
                        .putHeader("Content-Type", "application/json")
                        .setBody(Body.body(Buffer.buffer(
                                failureBody.apply("The upstream service at " + upstream + " did not answer: " + failure.getMessage())))));
            });
        }
    }
}
