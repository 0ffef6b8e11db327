package org.llmplatform.tracing.common;

/**
 * A write the database refused because of what the caller sent: a value it cannot hold, or an id that is
 * already taken. Stores throw it; the HTTP layer ({@code http.DomainExceptionMappers}) answers 400 or 409.
 */
public class RefusedWriteException extends RuntimeException {

    /** Why the write was refused. */
    public enum Reason {
        UNSTORABLE_VALUE,
        DUPLICATE_ID
    }

    private final Reason reason;

    public RefusedWriteException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** A text holding the NUL character, which PostgreSQL cannot store; {@code where} names the value when known. */
    public static RefusedWriteException nulCharacter(String where) {
        return new RefusedWriteException(Reason.UNSTORABLE_VALUE,
                "Strings may not contain the NUL character (\\u0000)" + (where == null ? "" : ": " + where));
    }

    public static RefusedWriteException duplicateId(String message) {
        return new RefusedWriteException(Reason.DUPLICATE_ID, message);
    }

    public Reason reason() {
        return reason;
    }
}
