package org.llmplatform.tracing.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.llmplatform.model.auth.ApiKeys;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.auth.TeamRole;
import org.llmplatform.support.auth.ApiKeyAuthenticator;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.identity.ApiKeyInfo;
import org.llmplatform.support.identity.IdentityStore;
import org.llmplatform.support.identity.Membership;
import org.llmplatform.support.identity.Team;
import org.llmplatform.support.identity.User;

/**
 * Who may change identity: administrators create users; any user creates teams (and becomes their
 * admin); team admins manage members; users manage their own keys, administrators everyone's.
 */
@ApplicationScoped
public class AdminService {

    private static final Pattern ENTITY_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

    public record NewUser(String name, String email, Boolean admin) {
    }

    public record NewTeam(String name) {
    }

    public record NewMembership(TeamRole role) {
    }

    public record NewApiKey(String name) {
    }

    /** The only response that ever carries a key: shown once, never stored. */
    public record CreatedApiKey(String id, String user, String name, String key, String hint,
            @JsonProperty("created_at") OffsetDateTime createdAt) {
    }

    /**
     * The caller as the console shows it: who, whether an administrator, the key in use, and the teams with the
     * caller's role. {@code hasApiKeys} is false for the bootstrap administrator, which has no user and no keys.
     */
    @RegisterForReflection
    public record Caller(String name, boolean admin, @JsonProperty("api_key_id") String apiKeyId,
            @JsonProperty("has_api_keys") boolean hasApiKeys, List<TeamRoleOf> teams) {
    }

    @RegisterForReflection
    public record TeamRoleOf(String name, TeamRole role) {
    }

    /** A team as listed: {@code role} is the caller's there, null for an administrator who is no member. */
    @RegisterForReflection
    public record ListedTeam(String name, @JsonProperty("created_at") OffsetDateTime createdAt, TeamRole role) {
    }

    private final IdentityStore store;
    private final CurrentPrincipal caller;
    private final ApiKeyAuthenticator authenticator;

    public AdminService(IdentityStore store, CurrentPrincipal caller, ApiKeyAuthenticator authenticator) {
        this.store = store;
        this.caller = caller;
        this.authenticator = authenticator;
    }

    public Uni<User> createUser(NewUser user) {
        caller.requireAdmin();
        if (user == null) {
            throw ApiException.missingField("name");
        }
        String name = requireEntityName(user.name());
        return store.createUser(name, user.email(), Boolean.TRUE.equals(user.admin()))
                .map(created -> created.orElseThrow(() -> taken(name)));
    }

    public Uni<Team> createTeam(NewTeam team) {
        if (team == null) {
            throw ApiException.missingField("name");
        }
        String name = requireEntityName(team.name());
        Principal creator = caller.get();
        return store.createTeam(name)
                .map(created -> created.orElseThrow(() -> taken(name)))
                .call(created -> creator.userName().equals(Principal.BOOTSTRAP_ADMIN)
                        ? Uni.createFrom().voidItem()
                        : store.putMembership(name, creator.userName(), TeamRole.ADMIN).invoke(authenticator::forgetAll));
    }

    public Caller whoAmI() {
        Principal principal = caller.get();
        return new Caller(principal.userName(), principal.admin(), principal.apiKeyId(),
                !principal.userName().equals(Principal.BOOTSTRAP_ADMIN), principal.teams().entrySet().stream()
                .map(team -> new TeamRoleOf(team.getKey(), team.getValue()))
                .sorted(Comparator.comparing(TeamRoleOf::name)).toList());
    }

    /** Administrators see every team, anyone else the teams they belong to. */
    public Uni<List<ListedTeam>> listTeams() {
        Principal principal = caller.get();
        return (principal.admin() ? store.listTeams() : store.listTeamsOf(principal.userName()))
                .map(teams -> teams.stream()
                        .map(team -> new ListedTeam(team.name(), team.createdAt(), principal.teams().get(team.name()))).toList());
    }

    public Uni<List<Membership>> listMembers(String team) {
        caller.requireEntity(team);
        return requireKind(team, "team").chain(() -> store.listMembers(team));
    }

    public Uni<Membership> putMember(String team, String user, NewMembership membership) {
        requireTeamAdmin(team);
        if (membership == null || membership.role() == null) {
            throw ApiException.missingField("role");
        }
        return requireKind(team, "team")
                .chain(() -> requireKind(user, "user"))
                .chain(() -> store.putMembership(team, user, membership.role()))
                .invoke(authenticator::forgetAll);
    }

    public Uni<Void> removeMember(String team, String user) {
        requireTeamAdmin(team);
        return store.deleteMembership(team, user)
                .invoke(removed -> {
                    if (!removed) {
                        throw ApiException.notFound("'" + user + "' is not a member of team '" + team + "'");
                    }
                    authenticator.forgetAll();
                })
                .replaceWithVoid();
    }

    public Uni<CreatedApiKey> createApiKey(String user, NewApiKey request) {
        requireSelfOrAdmin(user);
        String name = request == null || request.name() == null || request.name().isBlank() ? "default" : request.name();
        if (name.length() > 128) {
            throw ApiException.invalidField("string_too_long", List.of("body", "name"), "String should have at most 128 characters", name);
        }
        String key = ApiKeys.generate();
        String id = UUID.randomUUID().toString();
        return requireKind(user, "user")
                .chain(() -> store.insertApiKey(id, user, name, ApiKeys.hash(key), ApiKeys.hint(key)))
                .map(info -> new CreatedApiKey(info.id(), user, info.name(), key, info.hint(), info.createdAt()));
    }

    public Uni<List<ApiKeyInfo>> listApiKeys(String user) {
        requireSelfOrAdmin(user);
        return requireKind(user, "user").chain(() -> store.listApiKeys(user));
    }

    public Uni<Void> revokeApiKey(String id) {
        return store.findApiKey(id)
                .map(key -> key.orElseThrow(() -> ApiException.notFound("No API key with id '" + id + "'")))
                .invoke(key -> requireSelfOrAdmin(key.user()))
                .chain(key -> store.revokeApiKey(id))
                .invoke(authenticator::forgetAll)
                .replaceWithVoid();
    }

    private void requireSelfOrAdmin(String user) {
        Principal principal = caller.get();
        if (!principal.admin() && !principal.userName().equals(user)) {
            throw ApiException.forbidden("Only '" + user + "' or an administrator may manage this user's keys");
        }
    }

    private void requireTeamAdmin(String team) {
        if (!caller.get().isTeamAdmin(team)) {
            throw ApiException.forbidden("Only an admin of team '" + team + "' may change its members");
        }
    }

    private Uni<Void> requireKind(String name, String kind) {
        return store.entityKind(name).invoke(found -> {
            if (!found.filter(kind::equals).isPresent()) {
                throw ApiException.notFound("No " + kind + " named '" + name + "'");
            }
        }).replaceWithVoid();
    }

    private static String requireEntityName(String name) {
        if (name == null) {
            throw ApiException.missingField("name");
        }
        if (!ENTITY_NAME.matcher(name).matches()) {
            throw ApiException.invalidField("string_pattern_mismatch", List.of("body", "name"),
                    "name may hold 1 to 64 letters, digits, '_', '.' or '-'", name);
        }
        return name;
    }

    private static ApiException taken(String name) {
        return ApiException.conflict("The name '" + name + "' is already taken by a user or a team");
    }
}
