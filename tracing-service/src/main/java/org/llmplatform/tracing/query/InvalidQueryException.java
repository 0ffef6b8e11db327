package org.llmplatform.tracing.query;

import java.util.List;

/**
 * A query the caller got wrong, found while parsing or compiling it. It says what kind of mistake it is
 * and, for a shape error, where in the request body it sits; the HTTP layer
 * ({@code http.DomainExceptionMappers}) chooses the status and the body.
 */
public class InvalidQueryException extends RuntimeException {

    /** How the caller got it wrong. */
    public enum Kind {
        /** The request does not have the query language's shape (FastAPI answers these with a 422 naming the spot). */
        MALFORMED,
        /** The query names a field that may not be queried. */
        FIELD_NOT_ALLOWED,
        /** The query is well formed but cannot be run: a type clash, an empty {@code $and}, a bad page. */
        UNSUPPORTED
    }

    private final Kind kind;
    private final String type;
    private final List<Object> at;

    private InvalidQueryException(Kind kind, String type, List<Object> at, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.type = type;
        this.at = List.copyOf(at);
    }

    /** A shape error of {@code type} (pydantic's names: "missing", "value_error", …) at {@code at} in the body. */
    public static InvalidQueryException malformed(String type, List<Object> at, String message) {
        return new InvalidQueryException(Kind.MALFORMED, type, at, message);
    }

    public static InvalidQueryException fieldNotAllowed(String field) {
        return new InvalidQueryException(Kind.FIELD_NOT_ALLOWED, null, List.of(), "Field " + field + " is not allowed");
    }

    public static InvalidQueryException unsupported(String message) {
        return new InvalidQueryException(Kind.UNSUPPORTED, null, List.of(), message);
    }

    public Kind kind() {
        return kind;
    }

    /** The pydantic error type of a {@link Kind#MALFORMED} query; null otherwise. */
    public String type() {
        return type;
    }

    /** Where a {@link Kind#MALFORMED} query goes wrong, as a path into the request body (without "body"). */
    public List<Object> at() {
        return at;
    }
}
