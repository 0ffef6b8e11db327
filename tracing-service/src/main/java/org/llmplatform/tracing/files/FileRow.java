package org.llmplatform.tracing.files;

/** The metadata of one stored file; its bytes are the blob at {@code blobUri}. */
public record FileRow(String projectId, String digest, String name, long sizeBytes, String blobUri, String blobSha256) {
}
