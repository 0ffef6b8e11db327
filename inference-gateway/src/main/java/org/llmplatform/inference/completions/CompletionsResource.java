package org.llmplatform.inference.completions;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;
import org.llmplatform.inference.admission.Admission;
import org.llmplatform.inference.admission.CallHeaders;
import org.llmplatform.inference.chat.ChatCompletionsResource;
import org.llmplatform.inference.upstream.GatewayOverhead;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;

/** {@code POST /v1/completions}: a JSON {@code text_completion}, or with {@code stream: true} an SSE stream of chunks. */
@Path("/v1/completions")
public class CompletionsResource {

    private final CompletionsService completions;
    private final Admission admission;

    public CompletionsResource(CompletionsService completions, Admission admission) {
        this.completions = completions;
        this.admission = admission;
    }

    @POST
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT}, limits = @Limit(field = "model", max = FieldLimits.REF))
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @BeanParam CallHeaders headers, RoutingContext context) {
        return completions.create(admission.currentCaller(), headers, body, GatewayOverhead.arrivedNanos(context))
                .map(ChatCompletionsResource::response);
    }
}
