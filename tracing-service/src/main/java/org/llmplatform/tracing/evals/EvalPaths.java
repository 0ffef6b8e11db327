package org.llmplatform.tracing.evals;

import java.util.List;
import java.util.Locale;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;

/** The project a {@code /v2/{entity}/{project}} path names, and the limits of the ids its other parts carry. */
final class EvalPaths {

    private EvalPaths() {
    }

    /** The caller's access to the entity was checked before (BodyChecks); here only the lengths. */
    static String project(String entity, String project) {
        FieldLimits.check(entity, FieldLimits.NAME, "path", "entity");
        FieldLimits.check(project, FieldLimits.NAME, "path", "project");
        return entity + "/" + project;
    }

    static String objectVersion(String objectId, String digest) {
        FieldLimits.check(objectId, FieldLimits.NAME, "path", "object_id");
        FieldLimits.check(digest, FieldLimits.DIGEST, "path", "digest");
        return objectId;
    }

    static String id(String id, String parameter) {
        FieldLimits.check(id, FieldLimits.ID, "path", parameter);
        return id;
    }

    static List<String> ids(List<String> ids, String parameter, int max) {
        if (ids != null) {
            FieldLimits.checkEach(ids, max, "query", parameter);
        }
        return ids;
    }

    /**
     * A boolean query parameter as FastAPI reads one: {@code true/false}, {@code 1/0}, {@code yes/no}, {@code on/off},
     * {@code t/f}, {@code y/n} in any case; absent is {@code fallback}; anything else is 422 {@code bool_parsing}.
     */
    static boolean flag(String value, String parameter, boolean fallback) {
        if (value == null) {
            return fallback;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on", "t", "y" -> true;
            case "false", "0", "no", "off", "f", "n" -> false;
            default -> throw ApiException.invalidField("bool_parsing", List.of("query", parameter),
                    "Input should be a valid boolean, unable to interpret input", value);
        };
    }

    static void requirePresent(Object value, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", List.of("body", field), "Field required", null);
        }
    }

    static void requirePresentQuery(List<String> values, String parameter) {
        if (values == null || values.isEmpty()) {
            throw ApiException.invalidField("missing", List.of("query", parameter), "Field required", null);
        }
    }
}
