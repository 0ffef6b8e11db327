package org.llmplatform.support.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.auth.ApiKeyAuthenticator;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.PublicEndpoint;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.rest.Parameters;

/** Endpoints that exercise service-support's pieces the way a service's resources use them. */
@Path("/probe")
@Produces(MediaType.APPLICATION_JSON)
public class SupportProbe {

    private final CurrentPrincipal principal;
    private final ApiKeyAuthenticator authenticator;

    public SupportProbe(CurrentPrincipal principal, ApiKeyAuthenticator authenticator) {
        this.principal = principal;
        this.authenticator = authenticator;
    }

    public record Order(String item, int count) {
    }

    @GET
    @Path("whoami")
    public Map<String, String> whoami() {
        return Map.of("user", principal.get().userName());
    }

    @POST
    @Path("orders")
    @PublicEndpoint
    public Order order(Order order) {
        return order;
    }

    @GET
    @Path("conflict")
    @PublicEndpoint
    public String conflict() {
        throw ApiException.conflict("The order was placed already");
    }

    @GET
    @Path("page")
    @PublicEndpoint
    public Map<String, Integer> page(@RestQuery String limit) {
        return Map.of("limit", Parameters.limit(limit, 20, 100));
    }

    @POST
    @Path("forget-keys")
    @PublicEndpoint
    public void forgetKeys() {
        authenticator.forgetAll();
    }
}
