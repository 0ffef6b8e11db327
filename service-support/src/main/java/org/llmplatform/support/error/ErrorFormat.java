package org.llmplatform.support.error;

import java.util.List;
import java.util.Map;
import org.llmplatform.model.errors.ValidationIssue;

/**
 * The error bodies of one API. Services whose API has another shape than FastAPI's
 * ({@link FastApiErrorFormat}) provide their own bean.
 */
public interface ErrorFormat {

    /** The body of an error with a plain message. */
    Object errorBody(int status, String message);

    /** The body of a 422: the request does not fit the schema. */
    default Object validationBody(List<ValidationIssue> issues) {
        return Map.of("detail", issues);
    }

    /** The body of the 404 for a path that no endpoint serves. */
    default Object unknownRouteBody(String method, String path) {
        return Map.of("detail", "Not Found");
    }
}
