package org.llmplatform.inference.admission;

import jakarta.inject.Singleton;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;

/**
 * The project a request's usage is attributed to: {@code Compat-Project} (or W&B's
 * {@code OpenAI-Project}) when the key may use it (403 otherwise), else the caller's own
 * {@code <user>/inference}. Application-scoped: the caller is read from the request's {@link CurrentPrincipal},
 * so nothing is built per request.
 */
@Singleton
public class ProjectAttribution {

    private final CurrentPrincipal caller;
    private final GatewayConfig config;

    public ProjectAttribution(CurrentPrincipal caller, GatewayConfig config) {
        this.caller = caller;
        this.config = config;
    }

    /** {@code caller}: authenticated by Quarkus ({@link #principal()}) or by a plain Vert.x route. */
    public ProjectId project(Principal caller, String compatProject, String openAiProject) {
        String named = compatProject != null && !compatProject.isBlank() ? compatProject : openAiProject;
        if (named != null && !named.isBlank()) {
            return CurrentPrincipal.requireProject(caller, named.trim());
        }
        return ProjectId.parse(caller.userName() + "/" + config.defaultProjectName());
    }

    /** The caller of a request Quarkus authenticated. */
    public Principal principal() {
        return caller.get();
    }
}
