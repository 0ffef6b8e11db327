package org.llmplatform.inference.engine;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.chat.ChatCompletion;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.chat.EmbeddedChat;

/** Chat completions on the embedded engine, streamed as {@link ChatStream}'s events or collected into one answer. */
@Singleton
public class EngineChat implements EmbeddedChat {

    private final EngineChatService engine;
    private final ChatStream stream;

    public EngineChat(EngineChatService engine, ChatStream stream) {
        this.engine = engine;
        this.stream = stream;
    }

    @Override
    public Uni<Accepted> accept(AdmittedCall<ChatRequest> call) {
        return engine.accept(call).map(running -> new Accepted() {
            @Override
            public Multi<String> events() {
                return stream.events(running);
            }

            @Override
            public Uni<ChatCompletion> completion() {
                return engine.complete(running);
            }
        });
    }
}
