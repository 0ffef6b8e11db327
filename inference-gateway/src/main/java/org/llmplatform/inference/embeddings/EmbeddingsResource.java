package org.llmplatform.inference.embeddings;

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

/** {@code POST /v1/embeddings}: the embeddings of one input or several, as floats or base64. */
@Path("/v1/embeddings")
public class EmbeddingsResource {

    private final EmbeddingsService embeddings;
    private final Admission admission;

    public EmbeddingsResource(EmbeddingsService embeddings, Admission admission) {
        this.embeddings = embeddings;
        this.admission = admission;
    }

    @POST
    @BodyChecks(projectHeaders = {CallHeaders.COMPAT_PROJECT, CallHeaders.OPENAI_PROJECT}, limits = @Limit(field = "model", max = FieldLimits.REF))
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Object>> create(JsonNode body, @BeanParam CallHeaders headers, RoutingContext context) {
        return embeddings.create(admission.currentCaller(), headers, body, GatewayOverhead.arrivedNanos(context))
                .map(ChatCompletionsResource::response);
    }
}
