package org.llmplatform.support.forward;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * A streaming reverse proxy for one request: relays the method, path, query, headers and body to an
 * upstream base URL and the upstream's status, headers and body back, chunk by chunk in both directions
 * with back-pressure (Vert.x pipes), so that JSON Lines and server-sent events reach the caller as the
 * upstream writes them. It never blocks and never buffers a whole body.
 *
 * <p>The caller picks the upstream; this class only moves bytes. An unreachable upstream answers 502 with
 * the body the caller's API uses for errors.
 */
public final class HttpForwarder {

    /** RFC 9110 section 7.6.1: meaningful for one connection only, so never relayed. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade");

    private final HttpClient client;
    private final Function<String, String> failureBody;

    /**
     * @param client      the client the upstream requests go through (its options hold the timeouts and pool)
     * @param failureBody the JSON error body for a message, in the shape of the API being forwarded
     */
    public HttpForwarder(HttpClient client, Function<String, String> failureBody) {
        this.client = client;
        this.failureBody = failureBody;
    }

    /**
     * Relays {@code request} to {@code upstream} (a base URL; the request's path and query are appended to
     * its path) and answers it with what the upstream answers.
     */
    public void forward(HttpServerRequest request, URI upstream) {
        // Hold the body until the upstream request can take it; send(request) resumes it.
        request.pause();
        HttpServerResponse reply = request.response();
        RequestOptions options = new RequestOptions().setMethod(request.method())
                .setAbsoluteURI(target(upstream, request.uri())).setHeaders(requestHeaders(request));
        client.request(options).onComplete(created -> {
            if (created.failed()) {
                request.resume();
                fail(reply, upstream, created.cause());
                return;
            }
            HttpClientRequest outgoing = created.result();
            // A caller that goes away mid-stream stops the upstream's work too.
            reply.closeHandler(closed -> outgoing.reset());
            boolean hasBody = request.headers().contains(HttpHeaders.CONTENT_LENGTH)
                    || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
            if (!hasBody) {
                request.resume();
            }
            (hasBody ? outgoing.send(request) : outgoing.send()).onComplete(answered -> {
                if (answered.failed()) {
                    fail(reply, upstream, answered.cause());
                    return;
                }
                relay(answered.result(), reply);
            });
        });
    }

    private static void relay(HttpClientResponse answer, HttpServerResponse reply) {
        if (reply.closed()) {
            return;
        }
        reply.setStatusCode(answer.statusCode());
        reply.setStatusMessage(answer.statusMessage());
        copyHeaders(answer.headers(), reply.headers());
        if (!answer.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
            reply.setChunked(true);
        }
        // An upstream that breaks off mid-body must not look like a complete answer: the caller's stream is
        // reset instead of ended.
        answer.pipe().endOnFailure(false).to(reply).onFailure(broken -> reply.reset());
    }

    private void fail(HttpServerResponse reply, URI upstream, Throwable cause) {
        if (reply.headWritten() || reply.closed()) {
            reply.reset();
            return;
        }
        reply.setStatusCode(502).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(failureBody.apply("The upstream service at " + upstream + " did not answer: " + cause.getMessage()));
    }

    private static String target(URI upstream, String requestUri) {
        String base = upstream.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + requestUri;
    }

    private static MultiMap requestHeaders(HttpServerRequest request) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        copyHeaders(request.headers(), headers);
        // The upstream sees its own host; the original one travels as X-Forwarded-Host.
        headers.remove(HttpHeaders.HOST);
        // HTTP/2 callers name the host in :authority, HTTP/1.1 callers in Host; authority() reads either.
        if (request.authority() != null) {
            headers.set("X-Forwarded-Host", request.authority().toString());
        }
        headers.set("X-Forwarded-Proto", request.scheme());
        if (request.remoteAddress() != null) {
            String earlier = request.headers().get("X-Forwarded-For");
            String client = request.remoteAddress().hostAddress();
            headers.set("X-Forwarded-For", earlier == null ? client : earlier + ", " + client);
        }
        return headers;
    }

    private static void copyHeaders(MultiMap from, MultiMap to) {
        for (var header : from) {
            if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                to.add(header.getKey(), header.getValue());
            }
        }
    }
}
