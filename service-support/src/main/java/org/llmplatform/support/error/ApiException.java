package org.llmplatform.support.error;

import java.util.List;
import org.llmplatform.model.errors.ValidationIssue;

/**
 * A caller's mistake (or a missing thing) with the HTTP status it deserves. Each service's
 * {@link ErrorFormat} decides the body; a non-empty {@code issues} list makes it a 422 schema error.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final List<ValidationIssue> issues;

    public ApiException(int status, String message) {
        this(status, message, List.of());
    }

    private ApiException(int status, String message, List<ValidationIssue> issues) {
        super(message, null, false, false);
        this.status = status;
        this.issues = List.copyOf(issues);
    }

    public int status() {
        return status;
    }

    public List<ValidationIssue> issues() {
        return issues;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    public static ApiException conflict(String message) {
        return new ApiException(409, message);
    }

    /** A 422 naming the offending field: {@code loc} starts with "body", "query" or "path". */
    public static ApiException invalid(List<ValidationIssue> issues) {
        return new ApiException(422, issues.get(0).msg(), issues);
    }

    public static ApiException invalidField(String type, List<Object> loc, String msg, Object input) {
        return invalid(List.of(new ValidationIssue(type, loc, msg, input)));
    }

    /** The usual "this body field is required" 422. */
    public static ApiException missingField(String field) {
        return invalidField("missing", List.of("body", field), "Field required", null);
    }
}
