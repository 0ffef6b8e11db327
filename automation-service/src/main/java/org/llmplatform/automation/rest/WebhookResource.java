package org.llmplatform.automation.rest;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.llmplatform.automation.delivery.SendResult;
import org.llmplatform.automation.service.WebhookInput;
import org.llmplatform.automation.service.WebhookService;
import org.llmplatform.automation.store.Webhook;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

@Path("/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class WebhookResource {

    private final WebhookService webhooks;

    public WebhookResource(WebhookService webhooks) {
        this.webhooks = webhooks;
    }

    @POST
    @ResponseStatus(201)
    @BodyChecks(entities = "entity", limits = {@Limit(field = "entity", max = FieldLimits.NAME),
            @Limit(field = "access_token_secret", max = FieldLimits.NAME)})
    public Uni<Webhook> create(WebhookInput input) {
        return webhooks.create(input);
    }

    @GET
    @BodyChecks(entityParameters = "entity")
    public Uni<Listing<Webhook>> list(@RestQuery String entity) {
        return webhooks.list(Parameters.required(entity, In.QUERY, "entity")).map(Listing::new);
    }

    @GET
    @Path("{id}")
    public Uni<Webhook> get(@RestPath String id) {
        return webhooks.find(Parameters.uuid(id, In.PATH, "id"));
    }

    @PUT
    @Path("{id}")
    @BodyChecks(entities = "entity", limits = {@Limit(field = "entity", max = FieldLimits.NAME),
            @Limit(field = "access_token_secret", max = FieldLimits.NAME)})
    public Uni<Webhook> update(@RestPath String id, WebhookInput input) {
        return webhooks.update(Parameters.uuid(id, In.PATH, "id"), input);
    }

    @DELETE
    @Path("{id}")
    public Uni<Void> delete(@RestPath String id) {
        return webhooks.delete(Parameters.uuid(id, In.PATH, "id"));
    }

    /** Sends {@code {"payload": {...}}} (or a small default) now and returns what the endpoint answered. */
    @POST
    @Path("{id}/test")
    public Uni<SendResult> test(@RestPath String id, JsonNode body) {
        return webhooks.test(Parameters.uuid(id, In.PATH, "id"), body == null ? null : body.get("payload"));
    }
}
