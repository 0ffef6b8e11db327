package org.llmplatform.inference.chat;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.llmplatform.inference.admission.AdmittedCall;

/**
 * The embedded engine as {@link ChatService} uses it. The engine implements it ({@code engine/EngineChat}), so the
 * engine depends on the chat API's records and the chat feature depends on no engine class.
 */
public interface EmbeddedChat {

    /**
     * Accepts {@code request} for the engine: fails, before anything is generated, when it is refused (no such model,
     * a bad request for the model, the project's concurrency limit).
     */
    Uni<Accepted> accept(AdmittedCall<ChatRequest> call);

    /** An accepted request, generated when one of its answers is subscribed to. */
    interface Accepted {

        /** The answer of a streamed request: SSE events, each a complete {@code data: …\n\n} block. */
        Multi<String> events();

        /** The answer of an unstreamed request. */
        Uni<ChatCompletion> completion();
    }
}
