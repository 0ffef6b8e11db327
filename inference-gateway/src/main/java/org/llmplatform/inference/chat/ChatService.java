package org.llmplatform.inference.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.function.Function;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.UpstreamApi;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.model.auth.Principal;

/**
 * {@code POST /v1/chat/completions} whichever transport carried it ({@link ChatCompletionsResource},
 * {@link UpstreamChatRoute}): admits the request, then relays it to the upstream serving its model or runs it on the
 * embedded engine. Everything that can be refused is refused before the first byte, as a normal HTTP error.
 */
@Singleton
public class ChatService {

    private final Admission admission;
    private final UpstreamCompletionService upstream;
    private final EmbeddedChat engine;
    private final ObjectMapper json;

    public ChatService(Admission admission, UpstreamCompletionService upstream, EmbeddedChat engine, ObjectMapper json) {
        this.admission = admission;
        this.upstream = upstream;
        this.engine = engine;
        this.json = json;
    }

    /** Whether {@code model} is relayed to an upstream server (the relay route takes only those). */
    public boolean relays(String model) {
        return upstream.serves(model);
    }

    /**
     * Answers {@code body}, parsed and validated here. {@code arrivedNanos}: {@link System#nanoTime()} when the request
     * reached the gateway, for the overhead a relayed answer reports.
     */
    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, JsonNode body, long arrivedNanos) {
        return create(caller, headers, body, ChatRequestParser::parse, arrivedNanos);
    }

    /** The same for a body its transport already parsed into {@code request}. */
    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, ObjectNode body, ChatRequest request,
            long arrivedNanos) {
        return create(caller, headers, body, parsed -> request, arrivedNanos);
    }

    private Uni<ChatAnswer> create(Principal caller, CallHeaders headers, JsonNode body,
            Function<JsonNode, ChatRequest> parse, long arrivedNanos) {
        return admission.serve(caller, headers, body, parse, ChatRequest::model, call -> serve(call, arrivedNanos));
    }

    /**
     * Answers a chat request that was admitted already: one that another endpoint translated into a chat completion
     * after admitting its own request (the Responses API), so the request is admitted and counted once.
     */
    public Uni<ChatAnswer> serveAdmitted(AdmittedCall<ChatRequest> call, long arrivedNanos) {
        return admission.serveAdmitted(call, admitted -> serve(admitted, arrivedNanos));
    }

    private Uni<ChatAnswer> serve(AdmittedCall<ChatRequest> call, long arrivedNanos) {
        ChatRequest request = call.request();
        if (upstream.serves(request.model())) {
            return upstream.forward((ObjectNode) call.body(), request.model(), UpstreamApi.CHAT, call, arrivedNanos)
                    .map(reply -> ChatAnswer.relayed(reply, call.responseRequestId()));
        }
        Uni<EmbeddedChat.Accepted> accepted = engine.accept(call)
                .onFailure().invoke(refusal -> admission.refusedLater(call, refusal));
        if (request.stream()) {
            return accepted.map(running -> ChatAnswer.generated(StreamedBody.of(running.events()),
                    call.responseRequestId()));
        }
        return accepted.flatMap(EmbeddedChat.Accepted::completion)
                .map(completion -> ChatAnswer.generated(serialise(completion), call.responseRequestId()));
    }

    private String serialise(ChatCompletion completion) {
        try {
            return json.writeValueAsString(completion);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a completion could not be serialised", e);
        }
    }
}
