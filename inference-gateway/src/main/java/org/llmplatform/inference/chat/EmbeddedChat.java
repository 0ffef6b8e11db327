package org.llmplatform.inference.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;

/**
 * The embedded engine as {@link ChatService} uses it. The engine implements it ({@code engine/EngineChat}), so the
 * engine depends on the chat API's records and the chat feature depends on no engine class.
 */
public interface EmbeddedChat {

    /**
     * Accepts {@code request} for the engine: fails, before anything is generated, when it is refused (no such model,
     * a bad request for the model, the project's concurrency limit). {@code requestIdHeader}: the caller's
     * X-Request-Id, which the completion's id is made of.
     */
    Uni<Accepted> accept(ChatRequest request, JsonNode body, ProjectId project, Principal caller, String requestIdHeader,
            String weaveCallId);

    /** An accepted request, generated when one of its answers is subscribed to. */
    interface Accepted {

        /** The answer of a streamed request: SSE events, each a complete {@code data: …\n\n} block. */
        Multi<String> events();

        /** The answer of an unstreamed request. */
        Uni<ChatCompletion> completion();
    }
}
