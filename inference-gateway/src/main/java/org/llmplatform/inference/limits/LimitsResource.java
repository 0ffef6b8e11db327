package org.llmplatform.inference.limits;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

/**
 * The limits and budgets of a project ({@code ?project=entity/project}) and of the API keys used in it: read by its
 * members, set and removed by its team's admins (docs/inference-gateway.md#limits-and-budgets).
 */
@Path("/v1/limits")
@Produces(MediaType.APPLICATION_JSON)
public class LimitsResource {

    private final LimitsService limits;

    public LimitsResource(LimitsService limits) {
        this.limits = limits;
    }

    @GET
    public Uni<LimitsReport> get(@RestQuery String project) {
        return limits.report(required(project));
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Limits> putProject(@RestQuery String project, JsonNode body) {
        return limits.put(required(project), null, body);
    }

    @DELETE
    public Uni<RestResponse<Void>> deleteProject(@RestQuery String project) {
        return limits.delete(required(project), null).map(ignored -> RestResponse.noContent());
    }

    @PUT
    @Path("keys/{api_key_id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Limits> putKey(@RestQuery String project, @RestPath("api_key_id") String apiKeyId, JsonNode body) {
        return limits.put(required(project), apiKeyId, body);
    }

    @DELETE
    @Path("keys/{api_key_id}")
    public Uni<RestResponse<Void>> deleteKey(@RestQuery String project, @RestPath("api_key_id") String apiKeyId) {
        return limits.delete(required(project), apiKeyId).map(ignored -> RestResponse.noContent());
    }

    private static String required(String project) {
        return Parameters.required(project, In.QUERY, "project");
    }
}
