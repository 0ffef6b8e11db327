package org.llmplatform.inference.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.http.OpenAiErrorFormat;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.ResponseSink;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ApiKeyAuthenticator;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.error.ErrorResponses;

/**
 * Plain Vert.x routes ahead of an endpoint's resource for the requests it relays to upstreams (the gateway's hottest
 * path): {@code chat/UpstreamChatRoute}, {@code responses/UpstreamResponsesRoute}. Measured from outside at c=20,
 * Quarkus REST's machinery around a relay (filters, context capture on every stage, writer lookup, header maps) made
 * the gateway spend 95 µs of CPU per relayed chat request, 54 µs on such a route, and took most of a minute of load to
 * be JIT-compiled, where the route is compiled in about 20 s.
 *
 * <p>A route answers a request sent over HTTP/1.x with a known key and a JSON body of a declared length that its
 * endpoint {@linkplain Endpoint#takes takes} and {@linkplain Endpoint#parse parses}; the body is read once, into the
 * tree the endpoint's service gets. Its refusals (a project the key may not use, a malformed call-id header, a limit)
 * use the resource's error shapes. Everything else goes on to the resource, which answers it as before: the engine's
 * models, a missing or unknown key, a body the endpoint refuses, and the rare relays a route leaves alone (HTTP/2, a
 * chunked body).
 */
@Singleton
public class RelayRoutes {

    /** What a route needs of its endpoint. {@code R}: the endpoint's parsed request. */
    public interface Endpoint<R> {

        /** Whether the route answers this body: its model is an upstream's, its fields within the resource's limits. */
        boolean takes(ObjectNode body);

        /** The endpoint's request; an {@link ApiException} sends the body on to the resource, which refuses it. */
        R parse(ObjectNode body);

        Uni<ChatAnswer> serve(Principal caller, CallHeaders headers, ObjectNode body, R request, long arrivedNanos);
    }

    private static final String JSON = "application/json";
    private static final String KEY = "gateway.relay-key";

    private final ApiKeyAuthenticator authenticator;
    private final ErrorResponses errors;
    private final ObjectMapper json;
    private final long maxBodyBytes;
    private final BodyHandler bodyReader;

    public RelayRoutes(ApiKeyAuthenticator authenticator, ErrorResponses errors, ObjectMapper json,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBodySize) {
        this.authenticator = authenticator;
        this.errors = errors;
        this.json = json;
        this.maxBodyBytes = maxBodySize.asLongValue();
        this.bodyReader = BodyHandler.create(false).setBodyLimit(maxBodyBytes).setPreallocateBodyBuffer(true);
    }

    /** Routes {@code POST path} to {@code endpoint} ahead of the resource serving the same path. */
    public <R> void register(Router router, String path, Endpoint<R> endpoint) {
        router.post(path).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT)
                .handler(this::readIfRelayable)
                .handler(context -> relayIfTaken(context, endpoint));
    }

    /**
     * Reads the body only of a request it may relay: HTTP/1.x with a key and a JSON body of a declared length within
     * the limit. Everything else goes on unread, so the resource sees it as if this route were not there (it pauses
     * the request it gets, which an HTTP/2 request refuses once its body has been read). The body handler keeps what
     * it read on the context, where the resource finds it when the request goes on to it.
     */
    private void readIfRelayable(RoutingContext context) {
        GatewayOverhead.stamp(context);
        HttpServerRequest request = context.request();
        Optional<String> key = ApiKeyAuthenticator.requestKey(request.getHeader(HttpHeaders.AUTHORIZATION),
                request.getHeader(ApiKeyAuthenticator.KEY_HEADER));
        if (key.isEmpty() || request.version() == HttpVersion.HTTP_2
                || !isJsonOrUntyped(request.getHeader(HttpHeaders.CONTENT_TYPE)) || !hasBodyWithinLimit(request)) {
            context.next();
            return;
        }
        context.put(KEY, key.get());
        bodyReader.handle(context);
    }

    private <R> void relayIfTaken(RoutingContext context, Endpoint<R> endpoint) {
        String key = context.get(KEY);
        // a body the endpoint does not take goes on unvalidated: the resource validates what it gets
        Optional<ObjectNode> body = key == null ? Optional.empty()
                : objectOf(context.body().buffer()).filter(endpoint::takes);
        Optional<R> parsed = body.flatMap(taken -> parsed(endpoint, taken));
        if (parsed.isEmpty()) {
            context.next();
            return;
        }
        Context caller = Vertx.currentContext();
        authenticator.authenticate(key).subscribe().with(principal -> {
            if (principal.isEmpty()) {
                context.next();
            } else if (Vertx.currentContext() == caller) {
                relay(context, endpoint, body.get(), parsed.get(), principal.get());
            } else {
                // a key looked up in the database answers on the database client's thread
                caller.runOnContext(ignored -> relay(context, endpoint, body.get(), parsed.get(), principal.get()));
            }
        }, context::fail);
    }

    private boolean hasBodyWithinLimit(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length != null && Long.parseLong(length) <= maxBodyBytes;
        } catch (NumberFormatException malformed) {
            return false;
        }
    }

    private <R> void relay(RoutingContext context, Endpoint<R> endpoint, ObjectNode body, R parsed, Principal caller) {
        HttpServerRequest request = context.request();
        try {
            endpoint.serve(caller, CallHeaders.of(request::getHeader), body, parsed, GatewayOverhead.arrivedNanos(context))
                    .subscribe().with(answer -> answer(context, answer), failure -> refuse(context, failure));
        } catch (RuntimeException refusal) {
            refuse(context, refusal);
        }
    }

    private void answer(RoutingContext context, ChatAnswer answer) {
        HttpServerResponse response = context.response()
                .setStatusCode(answer.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, answer.contentType());
        answer.headers(response::putHeader);
        if (answer.body() instanceof StreamedBody stream) {
            stream.writeTo(new ResponseSink(response, () -> { }, failure -> refuse(context, failure)));
        } else {
            response.end((String) answer.body());
        }
    }

    /** Answers a refusal as the resource's exception mappers would; anything else is the router's 500. */
    private void refuse(RoutingContext context, Throwable failure) {
        if (!(failure instanceof ApiException refusal)) {
            context.fail(failure);
            return;
        }
        HttpServerResponse response = context.response().setStatusCode(refusal.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, JSON);
        Object body;
        if (refusal instanceof OpenAiException openAi) {
            openAi.headers().forEach((name, value) -> response.putHeader(name, value));
            body = OpenAiErrorFormat.errorBody(openAi);
        } else {
            body = errors.body(refusal);
        }
        try {
            response.end(json.writeValueAsString(body));
        } catch (JsonProcessingException unwritable) {
            context.fail(unwritable);
        }
    }

    /** What the resource's {@code @Consumes(application/json)} accepts: JSON, or no Content-Type at all. */
    private static boolean isJsonOrUntyped(String contentType) {
        return contentType == null || contentType.regionMatches(true, 0, JSON, 0, JSON.length());
    }

    private Optional<ObjectNode> objectOf(Buffer body) {
        if (body == null || body.length() == 0) {
            return Optional.empty();
        }
        try {
            JsonNode parsed = json.readTree(body.getBytes());
            return parsed instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    private static <R> Optional<R> parsed(Endpoint<R> endpoint, ObjectNode body) {
        try {
            return Optional.of(endpoint.parse(body));
        } catch (ApiException invalid) {
            return Optional.empty();
        }
    }
}
