package org.llmplatform.inference.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.inference.service.UsageTotalsService;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;

/** The gateway's usage totals of one project, per model. */
@Path("/v1/usage")
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {

    private final UsageTotalsService usage;
    private final CurrentPrincipal caller;

    public UsageResource(UsageTotalsService usage, CurrentPrincipal caller) {
        this.usage = usage;
        this.caller = caller;
    }

    @GET
    public Uni<UsageList> list(@RestQuery String project) {
        if (project == null || project.isBlank()) {
            throw ApiException.invalidField("missing", List.of("query", "project"), "Field required", null);
        }
        return usage.totals(caller.requireProject(project)).map(UsageList::of);
    }
}
