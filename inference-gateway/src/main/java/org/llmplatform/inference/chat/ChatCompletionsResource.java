package org.llmplatform.inference.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.RestResponse.ResponseBuilder;
import org.llmplatform.inference.admission.ChatHeaders;
import org.llmplatform.inference.admission.ProjectAttribution;
import org.llmplatform.inference.engine.ChatCall;
import org.llmplatform.inference.engine.ChatCompletionService;
import org.llmplatform.inference.engine.ChatStream;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.limits.ProjectPolicy;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.inference.usage.RefusedRequests;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;

/**
 * {@code POST /v1/chat/completions}: a JSON {@code chat.completion}, or with {@code stream: true} an SSE stream of
 * chunks. Everything that can be refused is refused before the first byte, as a normal HTTP error; generation runs
 * on the engine's workers, never on the event loop. Models of {@code gateway.upstreams} go to their upstream server;
 * most such requests are relayed by {@link UpstreamChatRoute} before they get here, the rest (HTTP/2, a body
 * without a declared length) are relayed here.
 */
@Path("/v1/chat/completions")
public class ChatCompletionsResource {

    private final ChatCompletionService completions;
    private final ChatStream stream;
    private final UpstreamCompletionService upstream;
    private final ProjectAttribution attribution;
    private final ObjectMapper json;
    private final ProjectPolicy policy;
    private final RefusedRequests refused;

    public ChatCompletionsResource(ChatCompletionService completions, ChatStream stream,
            UpstreamCompletionService upstream, ProjectAttribution attribution, ObjectMapper json, ProjectPolicy policy,
            RefusedRequests refused) {
        this.refused = refused;
        this.upstream = upstream;
        this.policy = policy;
        this.completions = completions;
        this.stream = stream;
        this.attribution = attribution;
        this.json = json;
    }

    /**
     * Runs on the event loop: parsing, validation and routing are cheap, and an upstream request is relayed without
     * a thread hop. What costs CPU for the embedded engine (tokenizing the prompt, merging a checkpoint's adapter,
     * generating) runs on worker threads.
     */
    @POST
    @BodyChecks(projectHeaders = {ChatHeaders.COMPAT_PROJECT, ChatHeaders.OPENAI_PROJECT}, limits = @Limit(field = "model", max = FieldLimits.REF))
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @RestHeader(ChatHeaders.REQUEST_ID) String requestId,
            @RestHeader(ChatHeaders.COMPAT_PROJECT) String compatProject,
            @RestHeader(ChatHeaders.OPENAI_PROJECT) String openAiProject,
            @RestHeader(UsageRecord.WEAVE_CALL_HEADER) String weaveCallHeader, RoutingContext context) {
        ProjectId project = attribution.project(compatProject, openAiProject);
        Principal caller = attribution.principal();
        Instant arrived = Instant.now();
        try {
            return create(body, project, caller, requestId, weaveCallHeader, context, arrived);
        } catch (RuntimeException refusal) {
            refused.record(body, project, caller.userName(), refusal, arrived);
            throw refusal;
        }
    }

    /** Everything that fails before a model runs the request is a refusal the project's usage counts. */
    private Uni<RestResponse<Object>> create(JsonNode body, ProjectId project, Principal caller, String requestId,
            String weaveCallHeader, RoutingContext context, Instant arrived) {
        ChatRequest request = ChatRequestParser.parse(body);
        String weaveCallId = ChatHeaders.weaveCallId(weaveCallHeader);
        policy.admit(project.toString(), request.model());
        String responseRequestId = ChatHeaders.responseRequestId(requestId);
        if (upstream.serves(request.model())) {
            return upstream.forward((ObjectNode) body, request.model(), project, caller.userName(),
                            requestId, weaveCallId, GatewayOverhead.arrivedNanos(context))
                    .map(reply -> ResponseBuilder.create(reply.status()).entity(reply.entity())
                            .header(HttpHeaders.CONTENT_TYPE, reply.contentType())
                            .header(ChatHeaders.REQUEST_ID, responseRequestId)
                            .header(GatewayOverhead.HEADER, GatewayOverhead.millis(reply.overheadNanos()))
                            .build());
        }
        Uni<ChatCall> accepted = completions.accept(request, body, project, caller, requestId, weaveCallId)
                .onFailure().invoke(refusal -> refused.record(body, project, caller.userName(), refusal, arrived));
        if (request.stream()) {
            return accepted.map(call -> ResponseBuilder.ok((Object) StreamedBody.of(stream.events(call)), "text/event-stream")
                    .header("Cache-Control", "no-cache")
                    .header(ChatHeaders.REQUEST_ID, responseRequestId)
                    .build());
        }
        return accepted.flatMap(completions::complete)
                .map(completion -> ResponseBuilder.ok((Object) serialise(completion), MediaType.APPLICATION_JSON)
                        .header(ChatHeaders.REQUEST_ID, responseRequestId)
                        .build());
    }

    private String serialise(ChatCompletion completion) {
        try {
            return json.writeValueAsString(completion);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a completion could not be serialised", e);
        }
    }
}
