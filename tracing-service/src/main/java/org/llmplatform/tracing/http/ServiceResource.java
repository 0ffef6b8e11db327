package org.llmplatform.tracing.http;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.llmplatform.support.auth.PublicEndpoint;

/** The two unauthenticated endpoints Weave clients call before anything else. */
@Path("/")
@PublicEndpoint
@Produces(MediaType.APPLICATION_JSON)
public class ServiceResource {

    @GET
    @Path("health")
    public Map<String, String> health() {
        return Map.of("status", "ok");
    }

    @GET
    @Path("server_info")
    public Map<String, String> serverInfo() {
        return Map.of("min_required_weave_python_version", "0.0.1", "trace_server_version", "0.1.0");
    }
}
