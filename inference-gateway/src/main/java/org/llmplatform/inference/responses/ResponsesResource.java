package org.llmplatform.inference.responses;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.chat.ChatCompletionsResource;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;

/**
 * OpenAI's Responses API ({@link ResponsesService}): {@code POST /v1/responses} answers a Response, or with
 * {@code stream: true} its SSE events; a stored response is read, its input items listed, and deleted by id within
 * its project. Most requests for an upstream's model are answered by {@link UpstreamResponsesRoute} before they get
 * here.
 */
@Path("/v1/responses")
public class ResponsesResource {

    private final ResponsesService responses;
    private final Admission admission;

    public ResponsesResource(ResponsesService responses, Admission admission) {
        this.responses = responses;
        this.admission = admission;
    }

    @POST
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT}, limits = {
            @Limit(field = "model", max = FieldLimits.REF), @Limit(field = "previous_response_id", max = FieldLimits.REF)})
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @BeanParam CallHeaders headers, RoutingContext context) {
        return responses.create(admission.currentCaller(), headers, body, GatewayOverhead.arrivedNanos(context))
                .map(ChatCompletionsResource::response);
    }

    @GET
    @Path("/{id}")
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<String> retrieve(@RestPath String id, @RestHeader(CallHeaders.COMPAT_PROJECT) String compatProject,
            @RestHeader(CallHeaders.OPENAI_PROJECT) String openAiProject) {
        return responses.retrieve(admission.currentCaller(), new CallHeaders(null, compatProject, openAiProject, null), id);
    }

    @GET
    @Path("/{id}/input_items")
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<JsonNode> inputItems(@RestPath String id, @RestQuery String after, @RestQuery String limit,
            @RestQuery String order, @RestHeader(CallHeaders.COMPAT_PROJECT) String compatProject,
            @RestHeader(CallHeaders.OPENAI_PROJECT) String openAiProject) {
        return responses.inputItems(admission.currentCaller(), new CallHeaders(null, compatProject, openAiProject, null),
                id, after, limit, order);
    }

    @DELETE
    @Path("/{id}")
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> delete(@RestPath String id,
            @RestHeader(CallHeaders.COMPAT_PROJECT) String compatProject,
            @RestHeader(CallHeaders.OPENAI_PROJECT) String openAiProject) {
        return responses.delete(admission.currentCaller(), new CallHeaders(null, compatProject, openAiProject, null), id);
    }
}
