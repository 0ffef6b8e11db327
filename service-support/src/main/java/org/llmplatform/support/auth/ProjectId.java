package org.llmplatform.support.auth;

import java.util.regex.Pattern;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;

/** A project id of the form {@code entity/project}. */
public record ProjectId(String entity, String project) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1," + FieldLimits.NAME + "}");

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
        if (!NAME.matcher(parsed.entity()).matches() || !NAME.matcher(parsed.project()).matches()) {
            throw ApiException.badRequest("project_id '" + projectId
                    + "' may hold only letters, digits, '_', '.' and '-' on each side of the '/'");
        }
        return parsed;
    }

    @Override
    public String toString() {
        return entity + "/" + project;
    }
}
