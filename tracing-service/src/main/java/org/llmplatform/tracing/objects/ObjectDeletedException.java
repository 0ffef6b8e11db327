package org.llmplatform.tracing.objects;

import org.llmplatform.support.error.ApiException;

/** A 404 for a version that existed and was deleted; its body also carries {@code deleted_at}. */
public class ObjectDeletedException extends ApiException {

    private final String deletedAt;

    public ObjectDeletedException(String message, String deletedAt) {
        super(404, message);
        this.deletedAt = deletedAt;
    }

    public String deletedAt() {
        return deletedAt;
    }
}
