package org.llmplatform.tracing.http;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.llmplatform.support.auth.PublicEndpoint;

/** The two unauthenticated endpoints Weave clients call before anything else. */
@Path("/")
@PublicEndpoint
@Produces(MediaType.APPLICATION_JSON)
public class ServiceResource {

    private final String version;

    /** {@code version}: this build's (the module's Maven version), sent as {@code trace_server_version}. */
    public ServiceResource(@ConfigProperty(name = "quarkus.application.version") String version) {
        this.version = version;
    }

    @GET
    @Path("health")
    public Map<String, String> health() {
        return Map.of("status", "ok");
    }

    @GET
    @Path("server_info")
    public Map<String, String> serverInfo() {
        return Map.of("min_required_weave_python_version", "0.0.1", "trace_server_version", version);
    }
}
