package org.llmplatform.inference.responses;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.admission.ProjectAttribution;
import org.llmplatform.inference.chat.ChatAnswer;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.ChatRequestParser;
import org.llmplatform.inference.chat.ChatService;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.UpstreamApi;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;

/**
 * {@code POST /v1/responses}, {@code GET} and {@code DELETE /v1/responses/{id}}, {@code GET
 * /v1/responses/{id}/input_items}: admits a request through the one
 * admission path, then relays it to an upstream that speaks the Responses API ({@code wire=responses}) or translates
 * it into a chat completion ({@link ChatTranslation}) served by {@link ChatService} like any other, its answer back
 * into a Response or its event stream. A translated response is stored for its project unless {@code store} is false,
 * before its client hears it is complete, so that {@code previous_response_id} can continue it at once.
 */
@Singleton
public class ResponsesService {

    private final Admission admission;
    private final ProjectAttribution attribution;
    private final ChatService chat;
    private final UpstreamCompletionService upstream;
    private final ResponsesStore store;
    private final ObjectMapper json;

    public ResponsesService(Admission admission, ProjectAttribution attribution, ChatService chat,
            UpstreamCompletionService upstream, ResponsesStore store, ObjectMapper json) {
        this.admission = admission;
        this.attribution = attribution;
        this.chat = chat;
        this.upstream = upstream;
        this.store = store;
        this.json = json;
    }

    /** Whether {@code model} is served by an upstream, relayed or translated (the relay route takes only those). */
    public boolean relays(String model) {
        return chat.relays(model);
    }

    /** Answers {@code body}, parsed and validated here; {@code arrivedNanos} as {@link ChatService#create}'s. */
    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, JsonNode body, long arrivedNanos) {
        return admission.serve(caller, headers, body, ResponsesRequestParser::parse, ResponsesRequest::model,
                call -> serve(call, arrivedNanos));
    }

    /** The same for a body its transport already parsed into {@code request}. */
    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, ObjectNode body, ResponsesRequest request,
            long arrivedNanos) {
        return admission.serve(caller, headers, body, parsed -> request, ResponsesRequest::model,
                call -> serve(call, arrivedNanos));
    }

    private Uni<ChatAnswer> serve(AdmittedCall<ResponsesRequest> call, long arrivedNanos) {
        ResponsesRequest request = call.request();
        if (upstream.speaksResponses(request.model())) {
            return upstream.forward(request.body(), request.model(), UpstreamApi.RESPONSES, call, arrivedNanos)
                    .map(reply -> ChatAnswer.relayed(reply, call.responseRequestId()));
        }
        return conversation(call)
                .map(conversation -> asChat(call, conversation))
                .onFailure().invoke(refusal -> admission.refusedLater(call, refusal))
                .flatMap(translated -> chat.serveAdmitted(translated.chatCall(), arrivedNanos)
                        .onFailure(OpenAiException.class).transform(refusal -> inResponsesTerms((OpenAiException) refusal))
                        .flatMap(answer -> answer(call, translated.conversation(), answer)));
    }

    /**
     * A refusal of the chat path in the terms of the request the client sent: the field it names ({@code messages}
     * is {@code input}, {@code max_tokens} {@code max_output_tokens}) and OpenAI's type for a bad request.
     */
    private static OpenAiException inResponsesTerms(OpenAiException refusal) {
        String param = refusal.param() == null ? null : switch (refusal.param()) {
            case "messages" -> "input";
            case "max_tokens", "max_completion_tokens" -> "max_output_tokens";
            default -> refusal.param();
        };
        boolean badRequest = "BadRequestError".equals(refusal.type());
        String code = badRequest && refusal.getMessage().contains("maximum context length") ? "context_length_exceeded"
                : refusal.code();
        return new OpenAiException(refusal.status(), refusal.getMessage(),
                badRequest ? "invalid_request_error" : refusal.type(), code, param, refusal.headers());
    }

    public Uni<String> retrieve(Principal caller, CallHeaders headers, String id) {
        ProjectId project = attribution.project(caller, headers.compatProject(), headers.openAiProject());
        return store.find(id, project.toString())
                .map(found -> found.orElseThrow(() -> notFound(id)).response());
    }

    /** A page of the items the stored response {@code id} was generated from ({@link InputItemList}). */
    public Uni<JsonNode> inputItems(Principal caller, CallHeaders headers, String id, String after, String limit,
            String order) {
        ProjectId project = attribution.project(caller, headers.compatProject(), headers.openAiProject());
        int pageSize;
        try {
            pageSize = limit == null ? InputItemList.DEFAULT_LIMIT : Integer.parseInt(limit);
        } catch (NumberFormatException notAnInteger) {
            throw ResponsesRequestParser.invalid("invalid_type", "limit",
                    "Invalid type for 'limit': expected an integer, but got a string instead.");
        }
        if (pageSize < 1 || pageSize > InputItemList.MAX_LIMIT) {
            throw ResponsesRequestParser.invalid(pageSize < 1 ? "integer_below_min_value" : "integer_above_max_value",
                    "limit", "Invalid 'limit': expected a value between 1 and " + InputItemList.MAX_LIMIT + ", but got "
                            + pageSize + " instead.");
        }
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw ResponsesRequestParser.invalid("invalid_value", "order", "Invalid value: '" + order
                    + "'. Supported values are: 'asc' and 'desc'.");
        }
        return store.find(id, project.toString()).map(found -> InputItemList.page(id,
                read(found.orElseThrow(() -> notFound(id)).input()), after, pageSize, "asc".equals(order)));
    }

    public Uni<Map<String, Object>> delete(Principal caller, CallHeaders headers, String id) {
        ProjectId project = attribution.project(caller, headers.compatProject(), headers.openAiProject());
        return store.delete(id, project.toString()).map(deleted -> {
            if (!deleted) {
                throw notFound(id);
            }
            return Map.of("id", id, "object", "response", "deleted", true);
        });
    }

    /** The items of the responses the request continues, then its own input. */
    private Uni<List<JsonNode>> conversation(AdmittedCall<ResponsesRequest> call) {
        ResponsesRequest request = call.request();
        if (request.previousResponseId() == null) {
            return Uni.createFrom().item(List.copyOf(request.input()));
        }
        return store.find(request.previousResponseId(), call.project().toString()).map(found -> {
            ResponsesStore.Stored previous = found.orElseThrow(() -> ResponsesRequestParser.invalid(null,
                    "previous_response_id", "Previous response with id '" + request.previousResponseId() + "' not found."));
            List<JsonNode> items = new ArrayList<>();
            read(previous.input()).forEach(items::add);
            read(previous.response()).path("output").forEach(items::add);
            items.addAll(request.input());
            return items;
        });
    }

    private Translated asChat(AdmittedCall<ResponsesRequest> call, List<JsonNode> conversation) {
        ObjectNode chatBody = ChatTranslation.toChat(call.request(), conversation);
        // the chat parser takes only tool_choice none, all the engine can honour; an upstream honours each of them
        JsonNode toolChoice = chatBody.remove("tool_choice");
        ChatRequest chatRequest = ChatRequestParser.parse(chatBody);
        if (chatRequest.firstPartNotText() != null && !chat.relays(chatRequest.model())) {
            throw ResponsesRequestParser.invalid("invalid_value", "input[].content", "Model `" + chatRequest.model()
                    + "` reads text only: input_image and input_file parts need a model of an upstream that reads them.");
        }
        if (toolChoice != null) {
            if (!"none".equals(toolChoice.asText()) && !chat.relays(chatRequest.model())) {
                throw ResponsesRequestParser.invalid("invalid_value", "tool_choice", "tool_choice '"
                        + (toolChoice.isTextual() ? toolChoice.textValue() : toolChoice.path("function").path("name").asText())
                        + "' cannot be honoured by this model: it calls no tools. Use 'auto' or 'none'.");
            }
            chatBody.set("tool_choice", toolChoice);
        }
        return new Translated(conversation, call.as(chatRequest, chatBody));
    }

    private Uni<ChatAnswer> answer(AdmittedCall<ResponsesRequest> call, List<JsonNode> conversation, ChatAnswer answer) {
        if (answer.status() != 200) {
            return Uni.createFrom().item(answer);
        }
        ObjectNode response = ResponseShapes.response(ResponseShapes.newId("resp_"), Instant.now().getEpochSecond(),
                call.request(), ResponseShapes.IN_PROGRESS);
        if (answer.body() instanceof StreamedBody stream) {
            return Uni.createFrom().item(new ChatAnswer(200, new ResponseEventStream(stream, response, json,
                    done -> stored(call, conversation, done)), answer.requestId(), answer.overheadMillis()));
        }
        JsonNode completion = read((String) answer.body());
        ObjectNode done = ResponseShapes.finish(response, ResponseShapes.output(completion),
                completion.path("choices").path(0).path("finish_reason").asText(null), completion.get("usage"));
        return stored(call, conversation, done)
                .map(ignored -> new ChatAnswer(200, write(done), answer.requestId(), answer.overheadMillis()));
    }

    private Uni<Void> stored(AdmittedCall<ResponsesRequest> call, List<JsonNode> conversation, ObjectNode response) {
        if (!call.request().store()) {
            return Uni.createFrom().voidItem();
        }
        return store.save(response.path("id").asText(), call.project().toString(), write(conversation), write(response));
    }

    private static OpenAiException notFound(String id) {
        return new OpenAiException(404, "Response with id '" + id + "' not found.", "invalid_request_error", null, null,
                Map.of());
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored or generated answer is not JSON", e);
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a response could not be serialised", e);
        }
    }

    /** A request as the chat completion that answers it, and the conversation it was made of. */
    private record Translated(List<JsonNode> conversation, AdmittedCall<ChatRequest> chatCall) {
    }
}
