package org.llmplatform.automation.rest;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.ResponseStatus;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.automation.service.AutomationInput;
import org.llmplatform.automation.service.AutomationService;
import org.llmplatform.automation.service.ExecutionService;
import org.llmplatform.automation.store.Automation;
import org.llmplatform.automation.store.Delivery;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

@Path("/automations")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AutomationResource {

    private static final int DEFAULT_HISTORY = 50;
    private static final int LONGEST_HISTORY = 500;

    /** How many failed deliveries were queued again. */
    @RegisterForReflection
    public record Requeued(int queued) {
    }

    private final AutomationService automations;
    private final ExecutionService executions;

    public AutomationResource(AutomationService automations, ExecutionService executions) {
        this.automations = automations;
        this.executions = executions;
    }

    @POST
    @ResponseStatus(201)
    @BodyChecks(entities = "scope.entity", limits = {@Limit(field = "scope.entity", max = FieldLimits.NAME),
            @Limit(field = "scope.project", max = FieldLimits.NAME), @Limit(field = "action.webhook_id", max = FieldLimits.ID)})
    public Uni<Automation> create(AutomationInput input) {
        return automations.create(input);
    }

    @GET
    @BodyChecks(entityParameters = "entity")
    public Uni<Listing<Automation>> list(@RestQuery String entity) {
        return automations.list(Parameters.required(entity, In.QUERY, "entity")).map(Listing::new);
    }

    @GET
    @Path("{id}")
    public Uni<Automation> get(@RestPath String id) {
        return automations.find(Parameters.uuid(id, In.PATH, "id"));
    }

    @PUT
    @Path("{id}")
    @BodyChecks(entities = "scope.entity", limits = {@Limit(field = "scope.entity", max = FieldLimits.NAME),
            @Limit(field = "scope.project", max = FieldLimits.NAME), @Limit(field = "action.webhook_id", max = FieldLimits.ID)})
    public Uni<Automation> update(@RestPath String id, AutomationInput input) {
        return automations.update(Parameters.uuid(id, In.PATH, "id"), input);
    }

    /** Deleting needs {@code ?confirm=true}: the automation's delivery history is deleted with it. */
    @DELETE
    @Path("{id}")
    public Uni<Void> delete(@RestPath String id, @RestQuery String confirm) {
        return automations.delete(Parameters.uuid(id, In.PATH, "id"), "true".equalsIgnoreCase(confirm));
    }

    /** Deliveries newest first, each with every attempt. */
    @GET
    @Path("{id}/executions")
    public Uni<Listing<Delivery>> executions(@RestPath String id, @RestQuery String limit) {
        return executions.history(Parameters.uuid(id, In.PATH, "id"), () -> Parameters.limit(limit, DEFAULT_HISTORY, LONGEST_HISTORY))
                .map(Listing::new);
    }

    @POST
    @Path("{id}/executions/{delivery_id}/redeliver")
    @ResponseStatus(202)
    public Uni<Void> redeliver(@RestPath String id, @RestPath("delivery_id") String deliveryId) {
        return executions.redeliver(Parameters.uuid(id, In.PATH, "id"), Parameters.uuid(deliveryId, In.PATH, "delivery_id"));
    }

    @POST
    @Path("{id}/executions/redeliver-failed")
    public Uni<Requeued> redeliverFailed(@RestPath String id) {
        return executions.redeliverFailed(Parameters.uuid(id, In.PATH, "id")).map(Requeued::new);
    }
}
