package org.llmplatform.tracing.service.file;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Weave's {@code bytes_digest} (spec section 7.1): URL-safe base64 of the SHA-256 with {@code -}→{@code X},
 * {@code _}→{@code Y} and no padding. The TypeScript SDK computes it client side and never reads ours.
 */
public final class FileDigests {

    private FileDigests() {
    }

    public static String bytesDigest(byte[] content) {
        return ofSha256(sha256(content));
    }

    static String ofSha256(byte[] sha256) {
        String base64 = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256);
        return base64.replace('-', 'X').replace('_', 'Y');
    }

    static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }
}
