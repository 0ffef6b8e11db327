package org.llmplatform.training.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.llmplatform.support.auth.PublicEndpoint;

/** The unauthenticated liveness answer: {@code /v1/health} for ART's base URL, {@code /health} as every service has. */
@Path("/")
@PublicEndpoint
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {

    @GET
    @Path("v1/health")
    public Map<String, String> health() {
        return Map.of("status", "ok");
    }

    @GET
    @Path("health")
    public Map<String, String> rootHealth() {
        return health();
    }
}
