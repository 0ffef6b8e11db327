package org.llmplatform.inference.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.RestResponse.ResponseBuilder;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;

/**
 * {@code POST /v1/chat/completions} over Quarkus REST: a JSON {@code chat.completion}, or with {@code stream: true} an
 * SSE stream of chunks ({@link ChatService}). Most requests for an upstream's model are relayed by
 * {@link UpstreamChatRoute} before they get here; this resource answers the rest (the engine's models, HTTP/2, a
 * body without a declared length, a missing key, an invalid body).
 */
@Path("/v1/chat/completions")
public class ChatCompletionsResource {

    private final ChatService chat;
    private final Admission admission;

    public ChatCompletionsResource(ChatService chat, Admission admission) {
        this.chat = chat;
        this.admission = admission;
    }

    /**
     * Runs on the event loop: parsing, validation and routing are cheap, and an upstream request is relayed without
     * a thread hop. What costs CPU for the embedded engine (tokenizing the prompt, merging a checkpoint's adapter,
     * generating) runs on worker threads.
     */
    @POST
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT}, limits = @Limit(field = "model", max = FieldLimits.REF))
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @BeanParam CallHeaders headers, RoutingContext context) {
        return chat.create(admission.currentCaller(), headers, body, GatewayOverhead.arrivedNanos(context))
                .map(ChatCompletionsResource::response);
    }

    /** The REST response of an answer (also the other generation endpoints'). */
    public static RestResponse<Object> response(ChatAnswer answer) {
        ResponseBuilder<Object> response = ResponseBuilder.create(answer.status())
                .entity(answer.body())
                .header(HttpHeaders.CONTENT_TYPE, answer.contentType());
        answer.headers(response::header);
        return response.build();
    }
}
