package org.llmplatform.tracing.completions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.llmplatform.model.events.UsageRecord;

/**
 * The inference gateway's OpenAI chat-completions API ({@code platform.inference.url}), called with
 * the caller's own API key and project so the gateway attributes and limits the request as its own, and
 * with the id of the call that tracks the request (none when untracked), which its usage record carries.
 */
@RegisterRestClient(configKey = "inference-gateway")
@Path("/v1/chat/completions")
@Consumes(MediaType.APPLICATION_JSON)
public interface InferenceGatewayClient {

    String PROJECT_HEADER = "Compat-Project";

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    Uni<JsonNode> create(@HeaderParam("Authorization") String authorization,
            @HeaderParam(PROJECT_HEADER) String project, @HeaderParam(UsageRecord.WEAVE_CALL_HEADER) String weaveCallId,
            ObjectNode request);

    /** The data of each server-sent event, {@code [DONE]} included. */
    @POST
    @Produces(MediaType.SERVER_SENT_EVENTS)
    Multi<String> stream(@HeaderParam("Authorization") String authorization,
            @HeaderParam(PROJECT_HEADER) String project, @HeaderParam(UsageRecord.WEAVE_CALL_HEADER) String weaveCallId,
            ObjectNode request);

    @ClientExceptionMapper
    static GatewayError toError(Response response) {
        String body = response.hasEntity() ? response.readEntity(String.class) : null;
        return GatewayError.of(response.getStatus(), body);
    }
}
