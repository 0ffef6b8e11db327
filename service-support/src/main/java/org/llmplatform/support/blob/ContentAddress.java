package org.llmplatform.support.blob;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.llmplatform.model.events.BlobReference;

/**
 * Where a blob lies in either backend: {@code sha256/<first two hex digits>/<digest>}, under the root
 * folder or as the object key, so a bucket and a folder hold the same layout and can be copied either way.
 */
final class ContentAddress {

    static final String URI_PREFIX = "blob:sha256:";
    private static final String LAYOUT_ROOT = "sha256/";
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern DIGEST_PREFIX = Pattern.compile("[0-9a-f]{0,64}");

    static BlobReference reference(String digest, long byteCount) {
        return new BlobReference(URI_PREFIX + digest, digest, byteCount);
    }

    /** The digest a reference names; fails with {@link BlobNotFoundException} when it names none. */
    static String digestOf(BlobReference reference) {
        String uri = reference.uri();
        String digest = uri != null && uri.startsWith(URI_PREFIX) ? uri.substring(URI_PREFIX.length()) : reference.sha256();
        if (digest == null || !DIGEST.matcher(digest).matches()) {
            throw new BlobNotFoundException("not a blob reference: " + uri);
        }
        return digest;
    }

    static String key(String digest) {
        return LAYOUT_ROOT + digest.substring(0, 2) + "/" + digest;
    }

    /** The key prefix under which every digest starting with {@code digestPrefix} lies. */
    static String keyPrefix(String digestPrefix) {
        if (digestPrefix == null || !DIGEST_PREFIX.matcher(digestPrefix).matches()) {
            throw new IllegalArgumentException("a digest prefix is lowercase hex, at most 64 digits: " + digestPrefix);
        }
        return digestPrefix.length() < 2 ? LAYOUT_ROOT + digestPrefix : LAYOUT_ROOT + digestPrefix.substring(0, 2) + "/" + digestPrefix;
    }

    /** The digest a key or file name of the layout ends with, or null for anything else lying there. */
    static String digestInKey(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        return DIGEST.matcher(name).matches() ? name : null;
    }

    static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    private ContentAddress() {
    }
}
