package org.llmplatform.inference.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.llmplatform.inference.chat.ChatCompletion;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.EmbeddedChat;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.ProjectId;

/** Chat completions on the embedded engine, streamed as {@link ChatStream}'s events or collected into one answer. */
@ApplicationScoped
public class EngineChat implements EmbeddedChat {

    private final EngineChatService engine;
    private final ChatStream stream;

    public EngineChat(EngineChatService engine, ChatStream stream) {
        this.engine = engine;
        this.stream = stream;
    }

    @Override
    public Uni<Accepted> accept(ChatRequest request, JsonNode body, ProjectId project, Principal caller,
            String requestIdHeader, String weaveCallId) {
        return engine.accept(request, body, project, caller, requestIdHeader, weaveCallId).map(call -> new Accepted() {
            @Override
            public Multi<String> events() {
                return stream.events(call);
            }

            @Override
            public Uni<ChatCompletion> completion() {
                return engine.complete(call);
            }
        });
    }
}
