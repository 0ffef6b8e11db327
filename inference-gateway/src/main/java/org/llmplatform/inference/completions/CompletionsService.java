package org.llmplatform.inference.completions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.chat.ChatAnswer;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.upstream.UpstreamApi;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.model.auth.Principal;

/**
 * {@code POST /v1/completions}: admits the request, then relays it to the upstream serving its model (as it came,
 * vLLM's refusals of fields the engine cannot serve left to the upstream) or runs it on the embedded engine.
 */
@Singleton
public class CompletionsService {

    private final Admission admission;
    private final UpstreamCompletionService upstream;
    private final EngineCompletions engine;
    private final ObjectMapper json;

    public CompletionsService(Admission admission, UpstreamCompletionService upstream, EngineCompletions engine,
            ObjectMapper json) {
        this.admission = admission;
        this.upstream = upstream;
        this.engine = engine;
        this.json = json;
    }

    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, JsonNode body, long arrivedNanos) {
        return admission.serve(caller, headers, body, CompletionRequestParser::parse, CompletionRequest::model,
                call -> serve(call, arrivedNanos));
    }

    private Uni<ChatAnswer> serve(AdmittedCall<CompletionRequest> call, long arrivedNanos) {
        CompletionRequest request = call.request();
        if (upstream.serves(request.model())) {
            return upstream.forward((ObjectNode) call.body(), request.model(), UpstreamApi.COMPLETIONS, call, arrivedNanos)
                    .map(reply -> ChatAnswer.relayed(reply, call.responseRequestId()));
        }
        Uni<CompletionCall> accepted = engine.accept(call)
                .onFailure().invoke(refusal -> admission.refusedLater(call, refusal));
        if (request.stream()) {
            return accepted.map(running -> ChatAnswer.generated(StreamedBody.of(engine.events(running)),
                    call.responseRequestId()));
        }
        return accepted.flatMap(engine::complete)
                .map(completion -> ChatAnswer.generated(serialise(completion), call.responseRequestId()));
    }

    private String serialise(TextCompletion completion) {
        try {
            return json.writeValueAsString(completion);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a completion could not be serialised", e);
        }
    }
}
