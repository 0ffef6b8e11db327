package org.llmplatform.automation.service;

import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.error.ApiException;

/**
 * Who may do what with an entity's secrets, webhooks and automations: admins of a team manage its objects
 * (a user is the admin of their own entity); any member may look at webhooks, automations and history.
 * An object of an entity the caller cannot see is reported missing, so ids leak nothing.
 */
final class Permissions {

    static boolean mayManage(Principal principal, String entity) {
        return principal.isTeamAdmin(entity) || principal.userName().equals(entity);
    }

    static void requireManager(Principal principal, String entity, String what) {
        if (!mayManage(principal, entity)) {
            throw ApiException.forbidden("Only admins of '" + entity + "' can manage its " + what);
        }
    }

    static void requireViewer(Principal principal, String entity) {
        if (!principal.mayAccessEntity(entity)) {
            throw ApiException.forbidden("You do not have access to entity '" + entity + "'");
        }
    }

    /** The object when the caller may see its entity; a 404 otherwise. */
    static <T> T visible(Principal principal, String entity, T object, String missing) {
        if (!principal.mayAccessEntity(entity)) {
            throw ApiException.notFound(missing);
        }
        return object;
    }

    private Permissions() {
    }
}
