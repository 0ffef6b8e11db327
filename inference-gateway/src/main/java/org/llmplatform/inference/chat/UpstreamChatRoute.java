package org.llmplatform.inference.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.model.auth.Principal;

/**
 * {@code POST /v1/chat/completions} for the models of {@code gateway.upstreams}, on a plain Vert.x route
 * ({@link RelayRoutes}) ahead of {@link ChatCompletionsResource}, answered by the same {@link ChatService}.
 */
@Singleton
public class UpstreamChatRoute implements RelayRoutes.Endpoint<ChatRequest> {

    private final ChatService chat;
    private final RelayRoutes routes;

    public UpstreamChatRoute(ChatService chat, RelayRoutes routes) {
        this.chat = chat;
        this.routes = routes;
    }

    void register(@Observes Router router) {
        routes.register(router, "/v1/chat/completions", this);
    }

    /** Whether the body's {@code model} is an upstream's: text, which the parser takes as it is (anything else it refuses). */
    @Override
    public boolean takes(ObjectNode body) {
        JsonNode model = body.get("model");
        return model != null && model.isTextual() && chat.relays(model.textValue());
    }

    @Override
    public ChatRequest parse(ObjectNode body) {
        return ChatRequestParser.parse(body);
    }

    @Override
    public Uni<ChatAnswer> serve(Principal caller, CallHeaders headers, ObjectNode body, ChatRequest request,
            long arrivedNanos) {
        return chat.create(caller, headers, body, request, arrivedNanos);
    }
}
