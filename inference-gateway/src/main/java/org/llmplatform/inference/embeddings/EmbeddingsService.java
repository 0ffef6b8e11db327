package org.llmplatform.inference.embeddings;

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
import org.llmplatform.inference.upstream.UpstreamApi;
import org.llmplatform.inference.upstream.UpstreamCompletionService;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.error.ApiException;

/** {@code POST /v1/embeddings}: admits the request, then relays it to its model's upstream or embeds on the engine. */
@Singleton
public class EmbeddingsService {

    private final Admission admission;
    private final UpstreamCompletionService upstream;
    private final EngineEmbeddings engine;
    private final ObjectMapper json;

    public EmbeddingsService(Admission admission, UpstreamCompletionService upstream, EngineEmbeddings engine,
            ObjectMapper json) {
        this.admission = admission;
        this.upstream = upstream;
        this.engine = engine;
        this.json = json;
    }

    public Uni<ChatAnswer> create(Principal caller, CallHeaders headers, JsonNode body, long arrivedNanos) {
        return admission.serve(caller, headers, body, EmbeddingsRequestParser::parse, EmbeddingsRequest::model,
                call -> serve(call, arrivedNanos));
    }

    private Uni<ChatAnswer> serve(AdmittedCall<EmbeddingsRequest> call, long arrivedNanos) {
        if (upstream.serves(call.request().model())) {
            return upstream.forward((ObjectNode) call.body(), call.request().model(), UpstreamApi.EMBEDDINGS, call,
                            arrivedNanos)
                    .map(reply -> ChatAnswer.relayed(reply, call.responseRequestId()));
        }
        // a refusal (404, 400) comes before the slot is taken; what fails after it is recorded as an error
        return engine.embed(call)
                .onFailure(ApiException.class).invoke(refusal -> admission.refusedLater(call, refusal))
                .map(embeddings -> ChatAnswer.generated(serialise(embeddings), call.responseRequestId()));
    }

    private String serialise(EmbeddingList embeddings) {
        try {
            return json.writeValueAsString(embeddings);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("embeddings could not be serialised", e);
        }
    }
}
