package org.llmplatform.tracing.objects;

/** A version about to be published; the store assigns its index. */
public record NewObjectVersion(String projectId, String objectId, String kind, String digest, String baseObjectClass,
        String leafObjectClass, String valDump, String svcUserId) {
}
