package org.llmplatform.tracing.completions;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.model.auth.ApiKeys;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.common.StrictRequest;
import org.llmplatform.tracing.completions.CompletionService.CompletionRequest;
import org.llmplatform.tracing.completions.CompletionService.CompletionsCreated;
import org.llmplatform.tracing.http.JsonLinesBody;

/** {@code /completions/create} (JSON) and {@code /completions/create_stream} (JSON Lines). */
@Path("/completions")
@Consumes(MediaType.APPLICATION_JSON)
public class CompletionResource {

    /** {@code svc_user_id} is accepted and ignored: the caller is the user. */
    @StrictRequest
    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CompletionsCreateReq(String projectId, ObjectNode inputs, @JsonAlias("wb_user_id") String svcUserId,
            Boolean trackLlmCall) {
    }

    private final CompletionService completions;

    public CompletionResource(CompletionService completions) {
        this.completions = completions;
    }

    @POST
    @Path("create")
    @BodyChecks(projectIds = "project_id")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<CompletionsCreated> create(CompletionsCreateReq request,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, @HeaderParam("wandb-api-key") String keyHeader) {
        return completions.create(toRequest(request, authorization, keyHeader));
    }

    @POST
    @Path("create_stream")
    @BodyChecks(projectIds = "project_id")
    public RestMulti<Buffer> createStream(CompletionsCreateReq request,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, @HeaderParam("wandb-api-key") String keyHeader,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        CompletionRequest accepted = toRequest(request, authorization, keyHeader);
        return RestMulti.fromMultiData(completions.createStream(accepted).map(Buffer::buffer))
                .status(200)
                .header(HttpHeaders.CONTENT_TYPE, JsonLinesBody.contentType(accept))
                .encodeAsJsonArray(false)
                .build();
    }

    /** The key the caller authenticated with (the filter accepted one of these), forwarded to the gateway. */
    private static CompletionRequest toRequest(CompletionsCreateReq request, String authorization, String keyHeader) {
        if (request == null) {
            throw ApiException.missingField("project_id");
        }
        String key = ApiKeys.fromAuthorizationHeader(authorization).orElse(keyHeader);
        return new CompletionRequest(request.projectId(), request.inputs(), request.trackLlmCall(), key);
    }
}
