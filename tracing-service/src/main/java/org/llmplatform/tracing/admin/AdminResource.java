package org.llmplatform.tracing.admin;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.resteasy.reactive.RestPath;
import org.llmplatform.support.identity.ApiKeyInfo;
import org.llmplatform.support.identity.Membership;
import org.llmplatform.tracing.admin.AdminService.NewApiKey;
import org.llmplatform.tracing.admin.AdminService.NewMembership;
import org.llmplatform.tracing.admin.AdminService.NewTeam;
import org.llmplatform.tracing.admin.AdminService.NewUser;

/** The identity admin API: users, teams, memberships and API keys. This service owns identity writes. */
@Path("/admin")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class AdminResource {

    private final AdminService admin;

    public AdminResource(AdminService admin) {
        this.admin = admin;
    }

    @POST
    @Path("users")
    public Uni<Response> createUser(NewUser user) {
        return admin.createUser(user).map(AdminResource::created);
    }

    @GET
    @Path("me")
    public Uni<AdminService.Caller> whoAmI() {
        return Uni.createFrom().item(admin.whoAmI());
    }

    @GET
    @Path("teams")
    public Uni<List<AdminService.ListedTeam>> listTeams() {
        return admin.listTeams();
    }

    @POST
    @Path("teams")
    public Uni<Response> createTeam(NewTeam team) {
        return admin.createTeam(team).map(AdminResource::created);
    }

    @GET
    @Path("teams/{team}/members")
    public Uni<List<Membership>> listMembers(@RestPath String team) {
        return admin.listMembers(team);
    }

    @PUT
    @Path("teams/{team}/members/{user}")
    public Uni<Membership> putMember(@RestPath String team, @RestPath String user, NewMembership membership) {
        return admin.putMember(team, user, membership);
    }

    @DELETE
    @Path("teams/{team}/members/{user}")
    public Uni<Response> removeMember(@RestPath String team, @RestPath String user) {
        return admin.removeMember(team, user).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("users/{user}/api-keys")
    public Uni<Response> createApiKey(@RestPath String user, NewApiKey key) {
        return admin.createApiKey(user, key).map(AdminResource::created);
    }

    @GET
    @Path("users/{user}/api-keys")
    public Uni<List<ApiKeyInfo>> listApiKeys(@RestPath String user) {
        return admin.listApiKeys(user);
    }

    @DELETE
    @Path("api-keys/{id}")
    public Uni<Response> revokeApiKey(@RestPath String id) {
        return admin.revokeApiKey(id).replaceWith(Response.noContent().build());
    }

    private static Response created(Object body) {
        return Response.status(Response.Status.CREATED).entity(body).build();
    }
}
