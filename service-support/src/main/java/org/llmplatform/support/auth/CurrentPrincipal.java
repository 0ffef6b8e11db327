package org.llmplatform.support.auth;

import jakarta.enterprise.context.RequestScoped;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.error.ApiException;

/** The authenticated caller of the current request, set by {@link AuthenticationFilter}. */
@RequestScoped
public class CurrentPrincipal {

    private Principal principal;
    private String apiKey;

    void set(Principal principal, String apiKey) {
        this.principal = principal;
        this.apiKey = apiKey;
    }

    public Principal get() {
        if (principal == null) {
            throw new IllegalStateException("no principal on a public endpoint");
        }
        return principal;
    }

    /** The key the caller authenticated with, for calling another service on the caller's behalf; never log it. */
    public String apiKey() {
        get();
        return apiKey;
    }

    /** Checks that the caller may use {@code entity/project}, and returns it parsed. */
    public ProjectId requireProject(String projectId) {
        return requireProject(get(), projectId);
    }

    /** The same check for a caller authenticated outside a request scope (a plain Vert.x route). */
    public static ProjectId requireProject(Principal caller, String projectId) {
        ProjectId parsed = ProjectId.parse(projectId);
        requireEntity(caller, parsed.entity());
        return parsed;
    }

    public void requireEntity(String entity) {
        requireEntity(get(), entity);
    }

    /** The same check for a caller authenticated outside a request scope, or before the resource runs. */
    public static void requireEntity(Principal caller, String entity) {
        if (!caller.mayAccessEntity(entity)) {
            throw ApiException.forbidden("You do not have access to entity '" + entity + "'");
        }
    }

    public void requireAdmin() {
        if (!get().admin()) {
            throw ApiException.forbidden("This needs an administrator's key");
        }
    }
}
