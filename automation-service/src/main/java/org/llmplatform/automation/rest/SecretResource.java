package org.llmplatform.automation.rest;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.automation.service.SecretService;
import org.llmplatform.automation.store.SecretInfo;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;

/** Team secrets: write-only. Responses name a secret and its times, never its value. */
@Path("/secrets")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SecretResource {

    /** The body of a secret write. Its toString hides the value, so no log line can carry it. */
    @RegisterForReflection
    public record SecretValue(String value) {
        @Override
        public String toString() {
            return "SecretValue[***]";
        }
    }

    private final SecretService secrets;

    public SecretResource(SecretService secrets) {
        this.secrets = secrets;
    }

    @GET
    @BodyChecks(entityParameters = "entity")
    public Uni<Listing<SecretInfo>> list(@RestQuery String entity) {
        return secrets.list(Parameters.required(entity, In.QUERY, "entity")).map(Listing::new);
    }

    /** Creates the secret, or rotates it: the new value replaces the old one at once. */
    @PUT
    @Path("{entity}/{name}")
    @BodyChecks(entityParameters = "entity")
    public Uni<SecretInfo> put(@RestPath String entity, @RestPath String name, SecretValue body) {
        if (body == null) {
            throw ApiException.missingField("value");
        }
        return secrets.put(entity, name, body.value());
    }

    @DELETE
    @Path("{entity}/{name}")
    @BodyChecks(entityParameters = "entity")
    public Uni<Void> delete(@RestPath String entity, @RestPath String name) {
        return secrets.delete(entity, name);
    }
}
