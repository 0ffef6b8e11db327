package org.llmplatform.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.model.auth.ApiKeys;

/**
 * Writes users, teams and keys straight into the identity schema, for the tests of services that
 * do not own the admin API. Run it after the application started (its migrations made the schema).
 */
public final class TestIdentities {

    /** Creates a user with a fresh API key and returns the key. */
    public static String userWithKey(String user) {
        String key = ApiKeys.generate();
        execute("INSERT INTO identity.entities (name, kind) VALUES (?, 'user')", user);
        execute("INSERT INTO identity.users (name) VALUES (?)", user);
        execute("INSERT INTO identity.api_keys (id, user_name, name, key_hash, hint) VALUES (?, ?, 'test', ?, ?)",
                UUID.randomUUID().toString(), user, ApiKeys.hash(key), ApiKeys.hint(key));
        return key;
    }

    public static void team(String team, String... members) {
        execute("INSERT INTO identity.entities (name, kind) VALUES (?, 'team')", team);
        execute("INSERT INTO identity.teams (name) VALUES (?)", team);
        for (String member : members) {
            execute("INSERT INTO identity.memberships (team_name, user_name, role) VALUES (?, ?, 'member')", team, member);
        }
    }

    /** Makes {@code user} an admin of {@code team}; before the user's key is first used (keys' principals are cached). */
    public static void teamAdmin(String team, String user) {
        execute("INSERT INTO identity.memberships (team_name, user_name, role) VALUES (?, ?, 'admin')", team, user);
    }

    /** The id of an API key (the one its owner's principal carries). */
    public static String keyId(String key) {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement statement = connection.prepareStatement("SELECT id FROM identity.api_keys WHERE key_hash = ?")) {
            statement.setString(1, ApiKeys.hash(key));
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no such key");
                }
                return rows.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("a key's id could not be read", e);
        }
    }

    public static void revoke(String key) {
        execute("UPDATE identity.api_keys SET revoked_at = now() WHERE key_hash = ?", ApiKeys.hash(key));
    }

    /** A name no other test uses, so that tests sharing one database never collide. */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static void execute(String sql, String... parameters) {
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("test identity setup failed: " + sql, e);
        }
    }

    private TestIdentities() {
    }
}
