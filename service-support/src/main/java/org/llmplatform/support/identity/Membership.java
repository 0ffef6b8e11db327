package org.llmplatform.support.identity;

import org.llmplatform.model.auth.TeamRole;

public record Membership(String team, String user, TeamRole role) {
}
