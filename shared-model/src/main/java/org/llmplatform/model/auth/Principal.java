package org.llmplatform.model.auth;

import java.util.Map;

/**
 * Who made a request: the user behind an API key, with the teams the user belongs to.
 * The bootstrap administrator has no user row; it may do anything.
 */
public record Principal(String userName, String apiKeyId, boolean admin, Map<String, TeamRole> teams) {

    public static final String BOOTSTRAP_ADMIN = "bootstrap-admin";

    public Principal {
        teams = Map.copyOf(teams);
    }

    public static Principal bootstrapAdmin() {
        return new Principal(BOOTSTRAP_ADMIN, null, true, Map.of());
    }

    /** An entity is the user's own name or a team the user belongs to. */
    public boolean mayAccessEntity(String entity) {
        return admin || userName.equals(entity) || teams.containsKey(entity);
    }

    public boolean isTeamAdmin(String team) {
        return admin || teams.get(team) == TeamRole.ADMIN;
    }
}
