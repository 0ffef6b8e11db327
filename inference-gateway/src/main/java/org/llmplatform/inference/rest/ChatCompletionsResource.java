package org.llmplatform.inference.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.RestResponse.ResponseBuilder;
import org.llmplatform.inference.service.ChatCall;
import org.llmplatform.inference.service.ChatCompletionService;
import org.llmplatform.inference.service.ChatStream;
import org.llmplatform.inference.service.ProjectAttribution;
import org.llmplatform.inference.service.ProjectPolicy;
import org.llmplatform.inference.service.StreamedBody;
import org.llmplatform.inference.service.request.ChatRequest;
import org.llmplatform.inference.service.request.ChatRequestParser;
import org.llmplatform.inference.service.response.ChatCompletion;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;

/**
 * {@code POST /v1/chat/completions} of the embedded engine's models: a JSON {@code chat.completion}, or with
 * {@code stream: true} an SSE stream of chunks. Everything that can be refused is refused before the first byte, as
 * a normal HTTP error; generation runs on the engine's workers, never on the event loop. Requests for models of
 * {@code gateway.upstreams} are relayed by {@link UpstreamChatRoute} before they reach this resource; it hands on
 * those it does not serve, and those this resource answers with an error the same way for every model (a key or a
 * body it cannot accept).
 */
@Path("/v1/chat/completions")
public class ChatCompletionsResource {

    private final ChatCompletionService completions;
    private final ChatStream stream;
    private final ProjectAttribution attribution;
    private final ObjectMapper json;
    private final ProjectPolicy policy;

    public ChatCompletionsResource(ChatCompletionService completions, ChatStream stream, ProjectAttribution attribution,
            ObjectMapper json, ProjectPolicy policy) {
        this.policy = policy;
        this.completions = completions;
        this.stream = stream;
        this.attribution = attribution;
        this.json = json;
    }

    /**
     * Runs on the event loop: parsing and validation are cheap. What costs CPU (tokenizing the prompt, merging a
     * checkpoint's adapter, generating) runs on worker threads.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @RestHeader(ChatHeaders.REQUEST_ID) String requestId,
            @RestHeader(ChatHeaders.COMPAT_PROJECT) String compatProject,
            @RestHeader(ChatHeaders.OPENAI_PROJECT) String openAiProject,
            @RestHeader(UsageRecord.WEAVE_CALL_HEADER) String weaveCallHeader) {
        ChatRequest request = ChatRequestParser.parse(body);
        String weaveCallId = ChatHeaders.weaveCallId(weaveCallHeader);
        ProjectId project = attribution.project(compatProject, openAiProject);
        policy.admit(project.toString(), request.model());
        String responseRequestId = ChatHeaders.responseRequestId(requestId);
        Uni<ChatCall> accepted = completions.accept(request, project, attribution.principal(), requestId, weaveCallId);
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
