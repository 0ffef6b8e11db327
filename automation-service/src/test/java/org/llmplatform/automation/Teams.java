package org.llmplatform.automation;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** A team with an admin and members, written straight into the identity schema. */
public final class Teams {

    public static void withAdmin(String team, String admin, String... members) {
        TestIdentities.team(team, members);
        PostgresServer postgres = PlatformTestResources.engines().postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
             PreparedStatement statement = connection.prepareStatement(
                     "INSERT INTO identity.memberships (team_name, user_name, role) VALUES (?, ?, 'admin')")) {
            statement.setString(1, team);
            statement.setString(2, admin);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not make " + admin + " an admin of " + team, e);
        }
    }

    private Teams() {
    }
}
