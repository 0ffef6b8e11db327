package org.llmplatform.inference.usage;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.auth.ProjectId;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

/** The gateway's usage totals of one project, per model. */
@Path("/v1/usage")
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {

    private static final int DEFAULT_DAYS = 30;
    private static final int MAX_DAYS = 366;

    private final UsageTotalsService usage;
    private final CurrentPrincipal caller;

    public UsageResource(UsageTotalsService usage, CurrentPrincipal caller) {
        this.usage = usage;
        this.caller = caller;
    }

    @GET
    public Uni<UsageList> list(@RestQuery String project) {
        return usage.totals(requireProject(project)).map(UsageList::of);
    }

    /**
     * The project's usage per UTC day and model, {@code from} to {@code to} (ISO dates, both included; by default the
     * 30 days up to today), at most {@value #MAX_DAYS} days.
     */
    @GET
    @Path("daily")
    public Uni<DailyUsageList> daily(@RestQuery String project, @RestQuery String from, @RestQuery String to) {
        ProjectId projectId = requireProject(project);
        LocalDate last = Parameters.optionalDate(to, In.QUERY, "to").orElseGet(() -> LocalDate.now(ZoneOffset.UTC));
        LocalDate first = Parameters.optionalDate(from, In.QUERY, "from").orElseGet(() -> last.minusDays(DEFAULT_DAYS - 1));
        if (first.isAfter(last)) {
            throw ApiException.invalidField("value_error", List.of("query", "from"), "Value error, from must not be after to", from);
        }
        if (ChronoUnit.DAYS.between(first, last) >= MAX_DAYS) {
            throw ApiException.invalidField("value_error", List.of("query", "from"),
                    "Value error, at most " + MAX_DAYS + " days can be asked for at once", from);
        }
        return usage.daily(projectId, first, last).map(days -> DailyUsageList.of(projectId.toString(), first, last, days));
    }

    private ProjectId requireProject(String project) {
        return caller.requireProject(Parameters.required(project, In.QUERY, "project"));
    }
}
