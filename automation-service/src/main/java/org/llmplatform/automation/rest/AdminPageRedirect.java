package org.llmplatform.automation.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Optional;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.support.auth.PublicEndpoint;
import org.llmplatform.support.error.ApiException;

/**
 * The standalone admin page this service used to serve moved into the console's Automations page: old
 * bookmarks of {@code /admin/…} are sent there when the console's URL is configured.
 */
@Path("/admin")
@PublicEndpoint
public class AdminPageRedirect {

    static final String CONSOLE_PAGE = "/#/automations";

    private final Optional<String> consoleUrl;

    public AdminPageRedirect(AutomationConfig config) {
        this.consoleUrl = config.consoleUrl();
    }

    @GET
    public Response page() {
        return toConsole(consoleUrl);
    }

    @GET
    @Path("{file: .*}")
    public Response file() {
        return toConsole(consoleUrl);
    }

    static Response toConsole(Optional<String> consoleUrl) {
        String console = consoleUrl.map(url -> url.replaceAll("/+$", "")).filter(url -> !url.isBlank())
                .orElseThrow(() -> ApiException.notFound("The automations admin page moved into the console (its "
                        + CONSOLE_PAGE + " page); set automation.console-url (PLATFORM_CONSOLE_URL) to be redirected there"));
        return Response.status(Response.Status.FOUND).location(URI.create(console + CONSOLE_PAGE)).build();
    }
}
