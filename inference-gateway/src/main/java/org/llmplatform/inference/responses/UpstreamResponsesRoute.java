package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.chat.ChatAnswer;
import org.llmplatform.inference.chat.RelayRoutes;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.body.FieldLimits;

/**
 * {@code POST /v1/responses} for the models of {@code gateway.upstreams} (relayed to one that speaks the Responses
 * API, translated into a chat completion for the others), on a plain Vert.x route ({@link RelayRoutes}) ahead of
 * {@link ResponsesResource}, answered by the same {@link ResponsesService}.
 */
@Singleton
public class UpstreamResponsesRoute implements RelayRoutes.Endpoint<ResponsesRequest> {

    private final ResponsesService responses;
    private final RelayRoutes routes;

    public UpstreamResponsesRoute(ResponsesService responses, RelayRoutes routes) {
        this.responses = responses;
        this.routes = routes;
    }

    void register(@Observes Router router) {
        routes.register(router, "/v1/responses", this);
    }

    /**
     * Whether the body's {@code model} is an upstream's, and its {@code previous_response_id} within the length the
     * resource accepts (a longer one goes on to the resource, which refuses it).
     */
    @Override
    public boolean takes(ObjectNode body) {
        JsonNode model = body.get("model");
        JsonNode previous = body.get("previous_response_id");
        return model != null && model.isTextual() && responses.relays(model.textValue())
                && (previous == null || !previous.isTextual() || previous.textValue().length() <= FieldLimits.REF);
    }

    @Override
    public ResponsesRequest parse(ObjectNode body) {
        return ResponsesRequestParser.parse(body);
    }

    @Override
    public Uni<ChatAnswer> serve(Principal caller, CallHeaders headers, ObjectNode body, ResponsesRequest request,
            long arrivedNanos) {
        return responses.create(caller, headers, body, request, arrivedNanos);
    }
}
