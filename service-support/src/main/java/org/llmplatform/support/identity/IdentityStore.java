package org.llmplatform.support.identity;

import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.model.auth.TeamRole;

/** The SQL over the {@code identity} schema: users, teams, memberships and hashed API keys. */
@ApplicationScoped
public class IdentityStore {

    private final Pool pool;

    public IdentityStore(@ReactiveDataSource("identity") Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<Principal>> findPrincipalByKeyHash(String keyHash) {
        return pool.preparedQuery("""
                SELECT k.id, u.name, u.admin, m.team_name, m.role
                FROM identity.api_keys k
                JOIN identity.users u ON u.name = k.user_name
                LEFT JOIN identity.memberships m ON m.user_name = u.name
                WHERE k.key_hash = $1 AND k.revoked_at IS NULL""")
                .execute(Tuple.of(keyHash))
                .map(IdentityStore::toPrincipal);
    }

    private static Optional<Principal> toPrincipal(RowSet<Row> rows) {
        Map<String, TeamRole> teams = new HashMap<>();
        Row first = null;
        for (Row row : rows) {
            first = first == null ? row : first;
            String team = row.getString("team_name");
            if (team != null) {
                teams.put(team, TeamRole.fromWire(row.getString("role")));
            }
        }
        if (first == null) {
            return Optional.empty();
        }
        return Optional.of(new Principal(first.getString("name"), first.getString("id"), first.getBoolean("admin"), teams));
    }

    /** Creates a user and its entity; empty when the name is taken by a user or a team. */
    public Uni<Optional<User>> createUser(String name, String email, boolean admin) {
        return pool.withTransaction(tx -> claimEntity(tx, name, "user").flatMap(claimed -> claimed
                ? tx.preparedQuery("INSERT INTO identity.users (name, email, admin) VALUES ($1, $2, $3) RETURNING created_at")
                        .execute(Tuple.of(name, email, admin))
                        .map(rows -> Optional.of(new User(name, email, admin, createdAt(rows))))
                : Uni.createFrom().item(Optional.<User>empty())));
    }

    /** Creates a team; empty when the name is taken by a user or a team. */
    public Uni<Optional<Team>> createTeam(String name) {
        return pool.withTransaction(tx -> claimEntity(tx, name, "team").flatMap(claimed -> claimed
                ? tx.preparedQuery("INSERT INTO identity.teams (name) VALUES ($1) RETURNING created_at")
                        .execute(Tuple.of(name))
                        .map(rows -> Optional.of(new Team(name, createdAt(rows))))
                : Uni.createFrom().item(Optional.<Team>empty())));
    }

    private static Uni<Boolean> claimEntity(SqlClient tx, String name, String kind) {
        return tx.preparedQuery("INSERT INTO identity.entities (name, kind) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .execute(Tuple.of(name, kind))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<Optional<String>> entityKind(String name) {
        return pool.preparedQuery("SELECT kind FROM identity.entities WHERE name = $1")
                .execute(Tuple.of(name))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString("kind")));
    }

    /** Adds the user to the team or changes the user's role there. */
    public Uni<Membership> putMembership(String team, String user, TeamRole role) {
        return pool.preparedQuery("""
                INSERT INTO identity.memberships (team_name, user_name, role) VALUES ($1, $2, $3)
                ON CONFLICT (team_name, user_name) DO UPDATE SET role = EXCLUDED.role""")
                .execute(Tuple.of(team, user, role.wireName()))
                .replaceWith(new Membership(team, user, role));
    }

    public Uni<Boolean> deleteMembership(String team, String user) {
        return pool.preparedQuery("DELETE FROM identity.memberships WHERE team_name = $1 AND user_name = $2")
                .execute(Tuple.of(team, user))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<List<Membership>> listMembers(String team) {
        return pool.preparedQuery("SELECT user_name, role FROM identity.memberships WHERE team_name = $1 ORDER BY user_name")
                .execute(Tuple.of(team))
                .map(rows -> {
                    List<Membership> members = new ArrayList<>();
                    rows.forEach(row -> members.add(new Membership(team, row.getString("user_name"), TeamRole.fromWire(row.getString("role")))));
                    return members;
                });
    }

    /** Every team, by name. */
    public Uni<List<Team>> listTeams() {
        return pool.query("SELECT name, created_at FROM identity.teams ORDER BY name").execute().map(IdentityStore::teams);
    }

    /** The teams the user belongs to, by name. */
    public Uni<List<Team>> listTeamsOf(String user) {
        return pool.preparedQuery("""
                SELECT t.name, t.created_at FROM identity.teams t
                JOIN identity.memberships m ON m.team_name = t.name
                WHERE m.user_name = $1 ORDER BY t.name""")
                .execute(Tuple.of(user))
                .map(IdentityStore::teams);
    }

    private static List<Team> teams(RowSet<Row> rows) {
        List<Team> teams = new ArrayList<>();
        rows.forEach(row -> teams.add(new Team(row.getString("name"), row.getOffsetDateTime("created_at"))));
        return teams;
    }

    public Uni<ApiKeyInfo> insertApiKey(String id, String user, String name, String keyHash, String hint) {
        return pool.preparedQuery("""
                INSERT INTO identity.api_keys (id, user_name, name, key_hash, hint) VALUES ($1, $2, $3, $4, $5)
                RETURNING created_at""")
                .execute(Tuple.of(id, user, name, keyHash, hint))
                .map(rows -> new ApiKeyInfo(id, user, name, hint, createdAt(rows), null));
    }

    public Uni<List<ApiKeyInfo>> listApiKeys(String user) {
        return pool.preparedQuery("""
                SELECT id, name, hint, created_at, revoked_at FROM identity.api_keys
                WHERE user_name = $1 ORDER BY created_at, id""")
                .execute(Tuple.of(user))
                .map(rows -> {
                    List<ApiKeyInfo> keys = new ArrayList<>();
                    rows.forEach(row -> keys.add(new ApiKeyInfo(row.getString("id"), user, row.getString("name"), row.getString("hint"),
                            row.getOffsetDateTime("created_at"), row.getOffsetDateTime("revoked_at"))));
                    return keys;
                });
    }

    public Uni<Optional<ApiKeyInfo>> findApiKey(String id) {
        return pool.preparedQuery("SELECT id, user_name, name, hint, created_at, revoked_at FROM identity.api_keys WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    Row row = rows.iterator().next();
                    return Optional.of(new ApiKeyInfo(row.getString("id"), row.getString("user_name"), row.getString("name"),
                            row.getString("hint"), row.getOffsetDateTime("created_at"), row.getOffsetDateTime("revoked_at")));
                });
    }

    /** Marks the key revoked (keeping its row for the listing); false when it was not active. */
    public Uni<Boolean> revokeApiKey(String id) {
        return pool.preparedQuery("UPDATE identity.api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL")
                .execute(Tuple.of(id))
                .map(rows -> rows.rowCount() == 1);
    }

    private static OffsetDateTime createdAt(RowSet<Row> rows) {
        return rows.iterator().next().getOffsetDateTime("created_at");
    }
}
