package org.llmplatform.inference.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.llmplatform.inference.admission.ChatHeaders;
import org.llmplatform.inference.admission.ProjectAttribution;
import org.llmplatform.inference.http.OpenAiErrorFormat;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.ResponseSink;
import org.llmplatform.inference.limits.ProjectPolicy;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.inference.upstream.UpstreamReply;
import org.llmplatform.inference.usage.RefusedRequests;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ApiKeyAuthenticator;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.error.ErrorResponses;

/**
 * {@code POST /v1/chat/completions} for the models of {@code gateway.upstreams}, on a plain Vert.x route ahead of
 * {@link ChatCompletionsResource}. Relaying is the gateway's hottest path. Measured from outside at c=20, Quarkus
 * REST's machinery around it (filters, context capture on every stage, writer lookup, header maps) made the gateway
 * spend 95 µs of CPU per relayed request, 54 µs on this route, and took most of a minute of load to be
 * JIT-compiled, where the route is compiled in about 20 s.
 *
 * <p>It relays a request whose model is an upstream's, sent over HTTP/1.x with a known key and a JSON body of a
 * declared length; its refusals (a project the key may not use, a malformed call-id header, a limit) use the
 * resource's error shapes. Everything else goes on to the resource, which answers it as before: the engine's models,
 * a missing or unknown key, a body that is not a valid chat request, and the rare relays this route leaves alone
 * (HTTP/2, a chunked body).
 */
@ApplicationScoped
public class UpstreamChatRoute {

    private static final String PATH = "/v1/chat/completions";
    private static final String JSON = "application/json";

    private final UpstreamCompletionService upstream;
    private final ApiKeyAuthenticator authenticator;
    private final ProjectAttribution attribution;
    private final ProjectPolicy policy;
    private final ErrorResponses errors;
    private final ObjectMapper json;
    private final long maxBodyBytes;
    private final RefusedRequests refused;

    public UpstreamChatRoute(UpstreamCompletionService upstream, ApiKeyAuthenticator authenticator,
            ProjectAttribution attribution, ProjectPolicy policy, ErrorResponses errors, ObjectMapper json,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBodySize,
            RefusedRequests refused) {
        this.refused = refused;
        this.upstream = upstream;
        this.authenticator = authenticator;
        this.attribution = attribution;
        this.policy = policy;
        this.errors = errors;
        this.json = json;
        this.maxBodyBytes = maxBodySize.asLongValue();
    }

    void register(@Observes Router router) {
        router.post(PATH).order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT).handler(this::route);
    }

    /**
     * Reads the body only of a request it may relay: HTTP/1.x with a key and a JSON body of a declared length within
     * the limit. Everything else goes on unread, so the resource sees it as if this route were not there (it pauses
     * the request it gets, which an HTTP/2 request refuses once its body has been read).
     */
    private void route(RoutingContext context) {
        GatewayOverhead.stamp(context);
        HttpServerRequest request = context.request();
        Optional<String> key = ApiKeyAuthenticator.requestKey(request.getHeader(HttpHeaders.AUTHORIZATION),
                request.getHeader(ApiKeyAuthenticator.KEY_HEADER));
        if (key.isEmpty() || request.version() == HttpVersion.HTTP_2
                || !isJsonOrUntyped(request.getHeader(HttpHeaders.CONTENT_TYPE)) || !hasBodyWithinLimit(request)) {
            context.next();
            return;
        }
        request.body().onComplete(read -> {
            if (read.failed()) {
                context.fail(read.cause());
                return;
            }
            // the resource reads the body from the context when the request goes on to it
            ((RoutingContextInternal) context).setBody(read.result());
            relayIfUpstream(context, key.get(), read.result());
        });
        // the router hands requests on paused
        request.resume();
    }

    private void relayIfUpstream(RoutingContext context, String key, Buffer bytes) {
        // a request for another model goes on unvalidated: the resource validates what it gets
        Optional<ObjectNode> body = objectOf(bytes).filter(this::namesUpstreamModel);
        Optional<ChatRequest> chat = body.flatMap(UpstreamChatRoute::chatRequest);
        if (chat.isEmpty()) {
            context.next();
            return;
        }
        Context caller = Vertx.currentContext();
        authenticator.authenticate(key).subscribe().with(principal -> {
            if (principal.isEmpty()) {
                context.next();
            } else if (Vertx.currentContext() == caller) {
                relay(context, body.get(), chat.get(), principal.get());
            } else {
                // a key looked up in the database answers on the database client's thread
                caller.runOnContext(ignored -> relay(context, body.get(), chat.get(), principal.get()));
            }
        }, context::fail);
    }

    /** Whether the body's {@code model} is an upstream's: text, which the parser takes as it is (anything else it refuses). */
    private boolean namesUpstreamModel(ObjectNode body) {
        JsonNode model = body.get("model");
        return model != null && model.isTextual() && upstream.serves(model.textValue());
    }

    private boolean hasBodyWithinLimit(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length != null && Long.parseLong(length) <= maxBodyBytes;
        } catch (NumberFormatException malformed) {
            return false;
        }
    }

    private void relay(RoutingContext context, ObjectNode body, ChatRequest chat, Principal caller) {
        HttpServerRequest request = context.request();
        ProjectId project;
        try {
            project = attribution.project(caller, request.getHeader(ChatHeaders.COMPAT_PROJECT),
                    request.getHeader(ChatHeaders.OPENAI_PROJECT));
        } catch (RuntimeException refusal) {
            refuse(context, refusal);
            return;
        }
        Instant arrived = Instant.now();
        try {
            String requestId = request.getHeader(ChatHeaders.REQUEST_ID);
            String weaveCallId = ChatHeaders.weaveCallId(request.getHeader(UsageRecord.WEAVE_CALL_HEADER));
            policy.admit(project.toString(), chat.model());
            String responseRequestId = ChatHeaders.responseRequestId(requestId);
            upstream.forward(body, chat.model(), project, caller.userName(), requestId, weaveCallId,
                            GatewayOverhead.arrivedNanos(context))
                    .subscribe().with(reply -> answer(context, reply, responseRequestId), failure -> refuse(context, failure));
        } catch (RuntimeException refusal) {
            refused.record(body, project, caller.userName(), refusal, arrived);
            refuse(context, refusal);
        }
    }

    private void answer(RoutingContext context, UpstreamReply reply, String requestId) {
        HttpServerResponse response = context.response()
                .setStatusCode(reply.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, reply.contentType())
                .putHeader(ChatHeaders.REQUEST_ID, requestId)
                .putHeader(GatewayOverhead.HEADER, GatewayOverhead.millis(reply.overheadNanos()));
        if (reply.isStreamed()) {
            reply.stream().writeTo(new ResponseSink(response, () -> { }, failure -> refuse(context, failure)));
        } else {
            response.end(reply.body());
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

    private static Optional<ChatRequest> chatRequest(ObjectNode body) {
        try {
            return Optional.of(ChatRequestParser.parse(body));
        } catch (ApiException invalid) {
            return Optional.empty();
        }
    }
}
