package org.llmplatform.support.auth;

import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;

/** A project id of the form {@code entity/project}. */
public record ProjectId(String entity, String project) {

    public static ProjectId parse(String projectId) {
        if (projectId == null) {
            throw ApiException.missingField("project_id");
        }
        if (projectId.length() > FieldLimits.PROJECT_ID) {
            throw ApiException.badRequest("project_id may hold at most " + FieldLimits.PROJECT_ID + " characters");
        }
        int slash = projectId.indexOf('/');
        if (slash < 0 || slash != projectId.lastIndexOf('/')) {
            throw ApiException.badRequest("project_id must look like 'entity/project', got '" + projectId + "'");
        }
        ProjectId parsed = new ProjectId(projectId.substring(0, slash), projectId.substring(slash + 1));
        if (!isName(parsed.entity()) || !isName(parsed.project())) {
            throw ApiException.badRequest("project_id '" + projectId
                    + "' may hold only letters, digits, '_', '.' and '-' on each side of the '/'");
        }
        return parsed;
    }

    /** {@code [A-Za-z0-9_.-]{1,NAME}}, checked without a regex: every call written names its project. */
    private static boolean isName(String name) {
        if (name.isEmpty() || name.length() > FieldLimits.NAME) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return entity + "/" + project;
    }
}
