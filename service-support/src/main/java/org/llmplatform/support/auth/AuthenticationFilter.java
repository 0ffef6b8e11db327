package org.llmplatform.support.auth;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.error.ErrorResponses;

/**
 * Authenticates every request to a resource not marked {@link PublicEndpoint}: {@code Authorization:
 * Bearer <key>}, {@code Authorization: Basic base64(any:<key>)}, or the {@code wandb-api-key} header
 * that OTLP exporters send. Neither the key nor the header is ever logged.
 */
public class AuthenticationFilter {

    private final ApiKeyAuthenticator authenticator;
    private final CurrentPrincipal currentPrincipal;
    private final ErrorResponses errors;

    public AuthenticationFilter(ApiKeyAuthenticator authenticator, CurrentPrincipal currentPrincipal, ErrorResponses errors) {
        this.authenticator = authenticator;
        this.currentPrincipal = currentPrincipal;
        this.errors = errors;
    }

    @ServerRequestFilter
    public Uni<Response> authenticate(ContainerRequestContext request, ResourceInfo resource) {
        if (isPublic(resource)) {
            return Uni.createFrom().nullItem();
        }
        Optional<String> key = ApiKeyAuthenticator.requestKey(request.getHeaderString(HttpHeaders.AUTHORIZATION),
                request.getHeaderString(ApiKeyAuthenticator.KEY_HEADER));
        if (key.isEmpty()) {
            return Uni.createFrom().item(unauthorized("Missing API key: send 'Authorization: Bearer <key>'"));
        }
        return authenticator.authenticate(key.get()).map(principal -> {
            if (principal.isEmpty()) {
                return unauthorized("Invalid API key");
            }
            currentPrincipal.set(principal.get(), key.get());
            return null;
        });
    }

    private Response unauthorized(String message) {
        return errors.toResponse(ApiException.unauthorized(message));
    }

    private static boolean isPublic(ResourceInfo resource) {
        return resource.getResourceMethod().isAnnotationPresent(PublicEndpoint.class)
                || resource.getResourceClass().isAnnotationPresent(PublicEndpoint.class);
    }
}
